import type { AudioEvent, WebhookCall } from "../webhook/payload";

/**
 * What a platform's event asks intake to record, whichever platform sent it (lib/intake/platforms
 * maps each platform's own form onto this): a call, a call that never connected (ElevenLabs'
 * call_initiation_failure, which only adds its reason to a call already stored), a recording, or
 * an event of another type, archived and acknowledged.
 */
export type IntakeEvent =
  | { kind: "call"; call: WebhookCall }
  | { kind: "failure"; call: WebhookCall }
  | { kind: "audio"; event: AudioEvent }
  | { kind: "other"; type: string };

/** An event read from its raw body: what to record, and the key its raw bytes are archived under. */
export interface ReadEvent {
  event: IntakeEvent;
  payloadKey: string;
}
