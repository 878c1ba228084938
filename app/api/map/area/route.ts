import { mapArea } from "@/lib/geocoding/centre/street-map";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("mapArea", "GET", async () => json(await mapArea()));
