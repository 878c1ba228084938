import { writeAnswer } from "@/lib/access/write-answer";
import { takeCall } from "@/lib/call-taking/take-call";
import { listCalls } from "@/lib/board/list-calls";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("calls", "GET", async ({ query }) => json(await listCalls(query)));

export const POST = apiRoute("calls", "POST", async ({ body, actor }) => {
  const { call, created } = await takeCall(body, actor);
  return json(writeAnswer(actor, call, (stored) => ({ id: stored.conversation_id, status: stored.status, changed: created ? ["created"] : [] })), { status: created ? 201 : 200 });
});
