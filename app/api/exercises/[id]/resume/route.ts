import { resumeExercise } from "@/lib/exercises/resume";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute("exerciseResume", "POST", async ({ params, actor }) => json(await resumeExercise(params.id, actor)));
