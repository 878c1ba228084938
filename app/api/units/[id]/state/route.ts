import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { changeUnitState } from "@/lib/units/state";

export const dynamic = "force-dynamic";

export const POST = apiRoute("unitState", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await changeUnitState(params.id, body, actor), (unit) => ({ id: unit.id, status: unit.state, changed: ["state"] }))),
);
