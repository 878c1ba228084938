import { writeAnswer } from "@/lib/access/write-answer";
import { apiRoute, json } from "@/lib/http/respond";
import { dismissPossibleDuplicate } from "@/lib/incidents/duplicates";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentDismissDuplicate", "POST", async ({ params, body, actor }) =>
  json(writeAnswer(actor, await dismissPossibleDuplicate(params.id, body.other_id, actor), (mark) => ({ id: mark.incident_id, changed: ["possible_duplicates"] }))),
);
