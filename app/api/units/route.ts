import { apiRoute, json } from "@/lib/http/respond";
import { listUnits } from "@/lib/units/read";
import { createUnit } from "@/lib/units/roster";

export const dynamic = "force-dynamic";

export const GET = apiRoute("units", "GET", async () => json(await listUnits()));

export const POST = apiRoute("units", "POST", async ({ body, actor }) => json(await createUnit(body, actor), { status: 201 }));
