import { getIncidentEido } from "@/lib/eido/export";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("incidentEido", "GET", async ({ params }) => json(await getIncidentEido(params.id)));
