import { createExercise } from "@/lib/exercises/create";
import { listExercises } from "@/lib/exercises/list";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute("exercises", "POST", async ({ body, actor }) => json(await createExercise(body, actor), { status: 201 }));

export const GET = apiRoute("exercises", "GET", async () => json(await listExercises()));
