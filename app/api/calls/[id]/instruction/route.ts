import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { instructAgent } from "@/lib/on-the-line/instruction";

export const dynamic = "force-dynamic";

export const POST = apiRoute("callInstruction", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await instructAgent(params.id, body.text, actor), (instruction) => ({ id: instruction.id, changed: ["instruction"] })), { status: 201 }),
);
