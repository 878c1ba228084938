import { locationCandidates } from "@/lib/call-taking/locations";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("locations", "GET", async ({ query }) => json(await locationCandidates(query)));
