import { z } from "zod";
import { DomainError, invalidParameter } from "../domain-error";
import { DEFAULT_SCENARIO_ID, findScenario, type Scenario, SCENARIO_IDS } from "../scenarios/scenario-list";
import { TABLE_NAME_PATTERN } from "../vocabulary";
import { DUPLICATE_SHARE, MAX_DUPLICATE_SHARE } from "./duplicate-share";

export const MIN_CALLS = 1;
export const MAX_CALLS = 1000;
export const DEFAULT_TABLE_NAME = "wildfire-simulation-calls";

export interface SimulateRequest {
  scenario: Scenario;
  numCalls: number;
  tableName: string;
  /** Same seed, scenario and num_calls: the same calls (ids and times aside). */
  seed?: number;
  /** Share of calls that report an event an earlier call of the request reported. */
  duplicateShare: number;
}


const numCallsMessage = `num_calls must be an integer from ${MIN_CALLS} to ${MAX_CALLS}`;
const tableNameMessage = "table_name must be 3 to 255 characters: letters, digits, '_', '.' or '-'";
const seedMessage = "seed must be an integer";
const duplicateShareMessage = `duplicate_share must be a number from 0 to ${MAX_DUPLICATE_SHARE}`;

// The scenario is checked on its own: an unknown one has its own error body.
const bodySchema = z.object({
  num_calls: z
    .number({ error: numCallsMessage })
    .int({ error: numCallsMessage })
    .min(MIN_CALLS, { error: numCallsMessage })
    .max(MAX_CALLS, { error: numCallsMessage })
    .default(MIN_CALLS),
  table_name: z
    .string({ error: tableNameMessage })
    .regex(TABLE_NAME_PATTERN, { error: tableNameMessage })
    .default(DEFAULT_TABLE_NAME),
  seed: z.number({ error: seedMessage }).int({ error: seedMessage }).optional(),
  duplicate_share: z
    .number({ error: duplicateShareMessage })
    .min(0, { error: duplicateShareMessage })
    .max(MAX_DUPLICATE_SHARE, { error: duplicateShareMessage })
    .default(DUPLICATE_SHARE)
    .meta({ description: `Share of calls about an event an earlier call of the request reported (duplicate callers), 0 to ${MAX_DUPLICATE_SHARE}; default ${DUPLICATE_SHARE}` }),
});

/** The whole request body as documented (GET /api/openapi.json). */
export const simulateRequestSchema = bodySchema.extend({
  scenario: z.enum(SCENARIO_IDS as [string, ...string[]]).default(DEFAULT_SCENARIO_ID),
});

/** The body of POST /api/simulate, defaults applied; throws the documented 400 errors (docs/simulation.md). */
export function parseSimulateRequest(body: unknown): SimulateRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidParameter("Invalid request", "The request body must be a JSON object");
  }
  const scenarioId = (body as { scenario?: unknown }).scenario ?? DEFAULT_SCENARIO_ID;
  const scenario = typeof scenarioId === "string" ? findScenario(scenarioId) : undefined;
  if (!scenario) {
    throw new DomainError("INVALID_PARAMETER", `scenario must be one of: ${SCENARIO_IDS.join(", ")}`, {
      label: `Unknown scenario: ${typeof scenarioId === "string" ? scenarioId : JSON.stringify(scenarioId)}`,
      extra: { available_scenarios: [...SCENARIO_IDS] },
    });
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidParameter(`Invalid ${String(issue.path[0])}`, issue.message);
  }
  return {
    scenario,
    numCalls: parsed.data.num_calls,
    tableName: parsed.data.table_name,
    seed: parsed.data.seed,
    duplicateShare: parsed.data.duplicate_share,
  };
}
