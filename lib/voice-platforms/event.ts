import type { LiveTranscript } from "../calls/write/live";
import type { Platform } from "../vocabulary";
import type { HandedOverCall } from "../calls/handed-over";

/**
 * A live event (docs/webhook.md, "Live events"): the platform says the call is in progress or
 * ended, or sends its transcript so far, before the post-call event. It makes or updates the
 * same live call record as the agent's tools (lib/calls/write/live.ts).
 */
export interface LiveCallEvent {
  conversationId: string;
  platform: Platform;
  agentId: string;
  callerPhone: string | null;
  ended: boolean;
  transcript: LiveTranscript | null;
  /** The platform's live control URL for the call, when it sends one (Vapi's `call.monitor.controlUrl`): lib/calls/control-urls.ts. */
  controlUrl?: string;
}

/** A call's recording sent in its event (ElevenLabs' post_call_audio): the whole call as base64 MP3. */
export interface Recording {
  conversationId: string;
  base64Audio: string;
}

/** A recording too large to hold, read from its spooled body's skeleton: its call, and the key its raw bytes are archived under. */
export interface SpooledRecording {
  conversationId: string;
  payloadKey: string;
}

/**
 * What a platform's event asks intake to record, whichever platform sent it (lib/voice-platforms
 * maps each platform's own form onto this): a call, a call that never connected (ElevenLabs'
 * call_initiation_failure, which only adds its reason to a call already stored), a recording, a
 * live event of a call in progress, or an event of another type, archived and acknowledged.
 */
export type IntakeEvent =
  | { kind: "call"; call: HandedOverCall }
  | { kind: "failure"; call: HandedOverCall }
  | { kind: "audio"; recording: Recording }
  | { kind: "live"; call: LiveCallEvent }
  | { kind: "other"; type: string };

/** An event read from its raw body: what to record, and the key its raw bytes are archived under. */
export interface ReadEvent {
  event: IntakeEvent;
  payloadKey: string;
}
