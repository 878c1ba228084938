import { pick, type RandomSource } from "./random";

/**
 * The three documented summary templates (docs/interface.md), word for word. They say what the
 * caller reported and what the agent did, as a voice agent's summary does, never that help was
 * dispatched: a simulated call arrives before any dispatcher has acted on it.
 */
export const SUMMARY_TEMPLATES: readonly ((description: string, address: string) => string)[] = [
  (description, address) => `Caller reported ${description} at ${address}. The caller asked for emergency help and stayed on the line.`,
  (description, address) => `A caller described ${description} at ${address}. The agent confirmed the address and a callback number.`,
  (description, address) => `Emergency call regarding ${description} at ${address}. The agent told the caller help is being requested.`,
];

export function templateSummary(random: RandomSource, description: string, address: string): string {
  return pick(random, SUMMARY_TEMPLATES)(description, address);
}
