import { apiRoute, json } from "@/lib/http/respond";
import { mergeCandidates } from "@/lib/incidents/merge-candidates";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incidentMergeCandidates", "GET", async ({ params, query }) => json(await mergeCandidates(params.id, query)));
