import { randomInt } from "node:crypto";
import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { getConfig } from "../config";
import { withDatabase } from "../db/with-database";
import { summarizeWithModel, summaryModelFromConfig } from "./ai-summaries";
import { centreIndexIfReadable } from "../geocoding/centre/loaded";
import { generateCallsWithEvents } from "./generate";
import { seededRandom, unseededRandom } from "./random";
import type { SimulateRequest } from "./request";
import type { GenerationMethod, SimulationResult } from "./result";
import { storeSimulatedCalls } from "./store-simulated-calls";

/** Up to this many calls the summaries are asked of the hosted model; above it, templates. */
export const AI_THRESHOLD = 20;
const SAMPLE_SIZE = 5;


export interface SimulationDeps {
  now?: () => Date;
  /** Integer parts of call ids: 12 random digits by default, so ids from any process differ. */
  callNumber?: () => number;
}

const randomCallNumber = () => randomInt(100_000_000_000, 1_000_000_000_000);

/** Generates, summarises and stores one simulation request. */
export async function runSimulation(request: SimulateRequest, actor: Actor, deps: SimulationDeps = {}): Promise<SimulationResult> {
  const { scenario, numCalls, tableName, seed, duplicateShare } = request;
  const callNumber = deps.callNumber ?? randomCallNumber;
  const centre = await centreIndexIfReadable();
  const { calls, events, placements } = generateCallsWithEvents({
    scenario,
    numCalls,
    random: seed === undefined ? unseededRandom() : seededRandom(seed),
    now: deps.now?.() ?? new Date(),
    callNumber,
    duplicateShare,
    centre,
  });

  // Every call already carries a template summary; the model replaces those it writes.
  let generationMethod: GenerationMethod = "Templates (fast mode)";
  let aiFallbacks: number | undefined;
  if (numCalls <= AI_THRESHOLD) {
    const model = summaryModelFromConfig(getConfig());
    const summaries = model ? await summarizeWithModel(calls, model) : calls.map(() => undefined);
    summaries.forEach((summary, index) => {
      if (summary) calls[index].summary = summary;
    });
    const fallbacks = summaries.filter((summary) => summary === undefined).length;
    generationMethod = fallbacks === 0 ? "Hosted AI" : "Templates (fallback)";
    if (fallbacks > 0) aiFallbacks = fallbacks;
  }

  const { stored, errors } = await storeSimulatedCalls(calls, tableName, callNumber, { events, placements });
  // A simulation is written in batches (a refused row fails alone), so its audit row follows them
  // and records what was stored; a simulation that stored nothing changed nothing.
  if (stored.length > 0) {
    await withDatabase((db) =>
      recordAudit(db, actor, {
        action: "simulation.run",
        target: { kind: "scenario", id: scenario.id },
        after: { table_name: tableName, requested: numCalls, stored: stored.length, failed: errors.length },
      }),
    );
  }
  return {
    message: `Generated ${stored.length} calls for ${scenario.name}`,
    scenario: scenario.id,
    total_requested: numCalls,
    successful: stored.length,
    failed: errors.length,
    generation_method: generationMethod,
    ...(aiFallbacks === undefined ? {} : { ai_fallbacks: aiFallbacks }),
    sample_calls: stored.slice(0, SAMPLE_SIZE).map((call) => ({
      call_id: call.call_id,
      location: call.location.area,
      emergency_type: call.emergency_type,
    })),
    errors: errors.map(({ index, reason }) => `Error on call ${index + 1}: ${reason}`),
  };
}
