import { writeAnswer } from "@/lib/access/write-answer";
import { acknowledgeIncident } from "@/lib/acknowledgements/acknowledge";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentAcknowledge", "POST", async ({ params, actor }) =>
  json(writeAnswer(actor, await acknowledgeIncident(params.id, actor), (acknowledgement) => ({ id: acknowledgement.id, changed: ["acknowledgements"] })), {
    status: 201,
  }),
);
