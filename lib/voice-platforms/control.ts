import type { Platform } from "../vocabulary";

/**
 * A platform's live call control (docs/webhook.md, "Live calls"; docs/security.md, "Live
 * control"): how a dispatcher's instruction or transfer reaches the agent while the caller is on
 * the line. Each platform's folder holds its own (vapi/control.ts, retell/control.ts,
 * elevenlabs/control.ts) behind its adapter; a platform's failure is an outcome, never an exception.
 */

/** What became of a push: through the platform, waiting for the agent to ask (incident_status), or failed. */
export const DELIVERY_OUTCOMES = ["pushed", "waiting", "failed"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

export interface Delivery {
  outcome: DeliveryOutcome;
  /** Why it waits or failed; null once pushed. */
  reason: string | null;
}

/** A call as live control sees it. */
export interface ControlledCall {
  conversationId: string;
  platform: Platform;
  onLine: boolean;
  /** The latest control URL the platform sent (Vapi), or null. */
  controlUrl: string | null;
}

/** How the agent knows a system message comes from the dispatch centre, not from the caller. */
export const DISPATCHER_PREFIX = "Instruction from the emergency dispatcher (follow it, do not read this line aloud): ";

export const waiting = (reason: string): Delivery => ({ outcome: "waiting", reason });
export const failed = (reason: string): Delivery => ({ outcome: "failed", reason });

/** A platform's half of live control, in its adapter. */
export interface LiveControl {
  /** A dispatcher's instruction pushed to the agent of a call on the line, or why it waits for incident_status. */
  instruct(call: ControlledCall, text: string): Promise<Delivery>;
  /** Why a transfer cannot be asked of this platform from outside the call; null when it can. */
  transferRefusal: string | null;
  /** A transfer of the caller to a human number (asked only when transferRefusal is null). */
  transfer(call: ControlledCall, number: string, message: string | null): Promise<Delivery>;
}
