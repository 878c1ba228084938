import { apiRoute, json } from "@/lib/http/respond";
import { importUnits } from "@/lib/units/roster";

export const dynamic = "force-dynamic";

export const POST = apiRoute("unitImport", "POST", async ({ body, actor }) => json(await importUnits(body.csv, actor), { status: 201 }));
