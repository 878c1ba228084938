import { pick, type RandomSource } from "./random";

/** A summary shape: a sentence about what was reported where, and one about what followed. */
export type SummaryTemplate = (description: string, address: string) => string;

/**
 * The specification's three summary templates of `POST /api/simulate` (docs/interface.md), word for
 * word: dispatcher style, naming the address and the dispatch of services. Exercises speak as
 * callers and agents do instead (lib/exercises/summary-templates.ts).
 */
export const SUMMARY_TEMPLATES: readonly SummaryTemplate[] = [
  (description, address) =>
    `Caller reported ${description} at ${address}. Emergency services have been dispatched to the scene.`,
  (description, address) =>
    `911 dispatch received report of ${description} at ${address}. First responders en route with ETA 5-7 minutes.`,
  (description, address) =>
    `Emergency call regarding ${description} at ${address}. Fire and EMS units notified and responding.`,
];

export function templateSummary(
  random: RandomSource,
  description: string,
  address: string,
  templates: readonly SummaryTemplate[] = SUMMARY_TEMPLATES,
): string {
  return pick(random, templates)(description, address);
}
