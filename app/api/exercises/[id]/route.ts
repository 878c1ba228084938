import { getExercise } from "@/lib/exercises/list";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("exercise", "GET", async ({ params }) => json(await getExercise(params.id)));
