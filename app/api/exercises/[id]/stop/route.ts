import { stopExercise } from "@/lib/exercises/stop";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute("exerciseStop", "POST", async ({ params, actor }) => json(await stopExercise(params.id, actor)));
