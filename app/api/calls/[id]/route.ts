import { writeAnswer } from "@/lib/access/write-answer";
import { viewCall } from "@/lib/calls/detail";
import { updateCall } from "@/lib/calls/update";
import { regroupCorrectedCall } from "@/lib/incidents/regroup";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("call", "GET", async ({ params, actor }) => json(await viewCall(params.id, actor)));

export const PATCH = apiRoute("call", "PATCH", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await updateCall(params.id, body, actor, regroupCorrectedCall), (call) => ({ id: call.conversation_id, status: call.status, changed: Object.keys(body) }))),
);
