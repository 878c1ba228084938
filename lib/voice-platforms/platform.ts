import type { Config } from "../config";
import type { Platform } from "../vocabulary";
import type { LiveControl } from "./control";
import type { SignatureCheck } from "./signature";
import type { LiveTools } from "./tools";
import type { ReadEvent, SpooledRecording } from "./event";

/**
 * One voice-agent platform's side of intake (docs/webhook.md): it only checks that a request
 * comes from the platform and maps the platform's event onto Mayday's call record. Everything
 * else (reading the body, archiving its bytes, geocoding, storing, grouping, deferring while
 * the database is down and the backlog) is the one pipeline in lib/intake. A new platform is one
 * file here and an entry in ./platform-adapters.ts (plus its endpoint in lib/intake/endpoints.ts).
 */
export interface PlatformAdapter {
  platform: Platform;
  /** The largest body read; only ElevenLabs' recordings may exceed the 5 MB every JSON event is held in. */
  maxBodyBytes: number;
  /**
   * Checks the request's credentials: the headers at once (a missing, malformed or stale one is
   * refused before the body is read), the body as it streams in, and `verify()` at its end.
   * Throws 401 INVALID_SIGNATURE.
   */
  startCheck(headers: Headers, config: Config, nowMs?: number): SignatureCheck;
  /** What a verified body holds and where its raw bytes are archived; 400 MISSING_FIELDS when it is not the platform's event. */
  read(body: unknown, rawBody: Buffer): ReadEvent;
  /**
   * A platform whose recordings come in the event (ElevenLabs): the skeleton of a body too large to
   * hold (lib/request-body/read.ts: the JSON with its one long string replaced by `marker`) read as
   * its recording event, the audio being that string; null when it is not one (413).
   */
  readSpooledRecording?(skeleton: Buffer, marker: string): SpooledRecording | null;
  /** The live tools' wire format: the request's credential, which call and which tools, the answer. */
  tools: LiveTools;
  /** Live control of a call on the line: a dispatcher's instruction, a transfer. */
  control: LiveControl;
}
