import { mapStreets } from "@/lib/geocoding/centre/street-map";
import { STREETS_CACHE_CONTROL } from "@/lib/geocoding/map-streets-schema";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("mapStreets", "GET", async ({ query }) => json(await mapStreets(query), { headers: { "cache-control": STREETS_CACHE_CONTROL } }));
