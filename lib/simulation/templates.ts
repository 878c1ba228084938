import { pick, type RandomSource } from "./random";

/** The three documented summary templates (docs/interface.md), word for word. */
export const SUMMARY_TEMPLATES: readonly ((description: string, address: string) => string)[] = [
  (description, address) =>
    `Caller reported ${description} at ${address}. Emergency services have been dispatched to the scene.`,
  (description, address) =>
    `911 dispatch received report of ${description} at ${address}. First responders en route with ETA 5-7 minutes.`,
  (description, address) =>
    `Emergency call regarding ${description} at ${address}. Fire and EMS units notified and responding.`,
];

export function templateSummary(random: RandomSource, description: string, address: string): string {
  return pick(random, SUMMARY_TEMPLATES)(description, address);
}
