import { locationDuplicates } from "@/lib/call-taking/duplicates";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("locationDuplicates", "GET", async ({ query }) => json(await locationDuplicates(query)));
