import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { undoUnitState } from "@/lib/units/undo-state";

export const dynamic = "force-dynamic";

export const POST = apiRoute("unitUndoState", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await undoUnitState(params.id, body.change_id, actor), (unit) => ({ id: unit.id, status: unit.state, changed: ["state"] }))),
);
