import type { z } from "zod";
import type { Config } from "../config";
import type { RawBody, ResponseSpec } from "../contract/endpoint";
import type { ErrorCode } from "../contract/error-codes";
import type { RateLimitPolicy } from "../rate-limit/types";
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
 * folder here, its adapter in ./adapters.ts and its endpoints in ./endpoints.ts (docs/webhook.md, "A fourth platform").
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

/** What one of a platform's endpoints declares of its own: the rest is every platform's, added where it is composed. */
interface PlatformOperation {
  /** Its path: `<the endpoints' folder>/<platform>` is served by the `[platform]` route (app/api/voiceagent-webhook, app/api/live-calls). */
  path: string;
  operationId: string;
  summary: string;
  /** Its credential's headers, documented. */
  headers: Record<string, { description: string; required: boolean }>;
  /** Its body, read raw (for the credential) and documented. */
  body: RawBody;
}

/**
 * A platform's two endpoints (its folder's endpoints.ts; ./endpoints.ts registers them): declarations
 * only, loading no operation, for lib/intake/endpoints.ts and lib/on-the-line/endpoints.ts compose
 * them into the endpoint registry (lib/http/endpoints.ts).
 */
export interface PlatformEndpoints {
  /** Its post-call events (lib/intake): every platform's answer and errors added. */
  webhook: PlatformOperation & {
    /**
     * A budget of its own, so a surge on one platform never refuses another's calls; `allow` when
     * the count is down, for a refused delivery may be a lost emergency call.
     */
    rateLimit: RateLimitPolicy;
    /** The 200's description: what its events store. */
    stored: string;
  };
  /** Its live tools (lib/on-the-line): the live tools' rate limit added. */
  liveTools: PlatformOperation & {
    /** The path's `:name` segments (ElevenLabs' tool, one URL per tool). */
    params?: z.ZodObject;
    /** Its 200, when it is not the LiveStatus (Vapi's results). */
    answer?: ResponseSpec;
    errors: readonly ErrorCode[];
  };
}
