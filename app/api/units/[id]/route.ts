import { apiRoute, json } from "@/lib/http/respond";
import { getUnit } from "@/lib/units/read";
import { updateUnit } from "@/lib/units/roster";

export const dynamic = "force-dynamic";

export const GET = apiRoute("unit", "GET", async ({ params }) => json(await getUnit(params.id)));

export const PATCH = apiRoute("unit", "PATCH", async ({ params, body, actor }) => json(await updateUnit(params.id, body, actor)));
