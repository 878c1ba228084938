import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { assignUnits } from "@/lib/units/assign";
import { recommendUnits } from "@/lib/units/recommend";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incidentUnits", "GET", async ({ params, query }) => json(await recommendUnits(params.id, query.limit)));

export const POST = apiRoute("incidentUnits", "POST", async ({ params, body, actor }) =>
  json(
    writeAnswer(actor, await assignUnits(params.id, body, actor), (answer) => ({ id: answer.incident_id, status: answer.incident_status, changed: ["units"] })),
    { status: 201 },
  ),
);
