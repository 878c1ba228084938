import { computeDebrief } from "@/lib/exercises/debrief";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("exerciseDebrief", "GET", async ({ params }) => json(await computeDebrief(params.id)));
