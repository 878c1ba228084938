import { apiRoute, json } from "@/lib/http/respond";
import { runSimulation } from "@/lib/simulation";

export const dynamic = "force-dynamic";

export const POST = apiRoute("simulate", "POST", async ({ body, actor }) => json(await runSimulation(body, actor)));
