import { pauseExercise } from "@/lib/exercises/pause";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute("exercisePause", "POST", async ({ params, actor }) => json(await pauseExercise(params.id, actor)));
