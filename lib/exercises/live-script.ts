import type { RandomSource } from "../simulation/random";
import type { SimulatedCall } from "../vocabulary";
import type { TranscriptTurn } from "../calls/handed-over";

/**
 * How a live exercise call unfolds (docs/exercises.md, "Live calls"): the steps the scheduler
 * writes through the live calls' door, each at its time after the call's release (exercise time).
 * Pure and deterministic per random source.
 */
export interface LiveStep {
  /** Exercise milliseconds after the call's release. */
  at_ms: number;
  /** The conversation so far, whole (as Retell's transcript_updated sends it). */
  turns: TranscriptTurn[];
  /** The agent reports the call with this step (type, severity, location, details, number), as its report_emergency would. */
  reports: boolean;
  /** The post-call event: the analysis and the whole transcript, after which the call is off the line. */
  ends: boolean;
}

export interface LiveScript {
  steps: LiveStep[];
}

/** When the agent reports the location: 15 to 60 seconds into the call (issue 38). */
const LOCATED_FROM_SECS = 15;
const LOCATED_BY_SECS = 60;
/** The talk after the location lasts this long at least, so each step says something new (generated calls last 45 s or more). */
const AFTER_LOCATED_SECS = 10;

const turn = (speaker: string, secs: number, text: string): TranscriptTurn => ({ speaker, time_in_call_secs: secs, text });

export function planLiveScript(call: SimulatedCall, random: RandomSource): LiveScript {
  const duration = call.duration_secs;
  const latest = Math.max(LOCATED_FROM_SECS, Math.min(LOCATED_BY_SECS, duration - AFTER_LOCATED_SECS));
  const located = LOCATED_FROM_SECS + Math.floor(random() * (latest - LOCATED_FROM_SECS + 1));
  const middle = Math.floor((located + duration) / 2);
  const conversation = [
    turn("agent", 0, "911, what is your emergency?"),
    turn("user", 3, call.description),
    turn("agent", located - 5, "What is the address of the emergency?"),
    turn("user", located, call.location.address),
    turn("agent", middle, "Help is on the way. Stay on the line with me."),
    turn("agent", duration - 1, "Responders are coming to you now. Stay safe."),
  ];
  const until = (secs: number) => conversation.filter((said) => said.time_in_call_secs! <= secs);
  return {
    steps: [
      { at_ms: 0, turns: until(3), reports: false, ends: false },
      { at_ms: located * 1000, turns: until(located), reports: true, ends: false },
      { at_ms: middle * 1000, turns: until(middle), reports: false, ends: false },
      { at_ms: duration * 1000, turns: conversation, reports: false, ends: true },
    ],
  };
}
