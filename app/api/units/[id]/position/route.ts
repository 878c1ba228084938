import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { reportPosition } from "@/lib/units/position";

export const dynamic = "force-dynamic";

export const POST = apiRoute("unitPosition", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await reportPosition(params.id, body), (unit) => ({ id: unit.id, status: unit.state, changed: ["position"] }))),
);
