import { startExercise } from "@/lib/exercises/start";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute("exerciseStart", "POST", async ({ params, actor }) => json(await startExercise(params.id, actor)));
