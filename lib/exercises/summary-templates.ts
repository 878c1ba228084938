import type { SummaryTemplate } from "../simulation/templates";

/**
 * An exercise call's summary templates. They say what the caller reported and what the agent did,
 * as a voice agent's summary does, never that help was dispatched: an exercise call reaches
 * trainees before anyone has acted on it, and dispatching it is their task (docs/exercises.md).
 */
export const EXERCISE_SUMMARY_TEMPLATES: readonly SummaryTemplate[] = [
  (description, address) => `Caller reported ${description} at ${address}. The caller asked for emergency help and stayed on the line.`,
  (description, address) => `A caller described ${description} at ${address}. The agent confirmed the address and a callback number.`,
  (description, address) => `Emergency call regarding ${description} at ${address}. The agent told the caller help is being requested.`,
];
