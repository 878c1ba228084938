import { readJsonBody } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";
import { parseSimulateRequest, runSimulation } from "@/lib/simulation";

export const dynamic = "force-dynamic";

export const POST = apiRoute("simulate", async (request) => {
  const simulation = parseSimulateRequest(await readJsonBody(request));
  return json(await runSimulation(simulation));
});
