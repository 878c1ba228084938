import { apiRoute, json } from "@/lib/http/respond";
import { assignUnits } from "@/lib/units/assign";

export const dynamic = "force-dynamic";

export const POST = apiRoute("incidentUnits", "POST", async ({ params, body, actor }) => json(await assignUnits(params.id, body, actor), { status: 201 }));
