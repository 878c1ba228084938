import { mapPlaces } from "@/lib/geocoding/map-places";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("mapPlaces", "GET", async ({ query }) => json(await mapPlaces(query)));
