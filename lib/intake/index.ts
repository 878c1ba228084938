import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { bumpCallsVersion } from "../calls/cache";
import { withCallStore } from "../calls/store";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";
import type { GeocodeResult } from "../geocoding";
import { DomainError, parseJson } from "../domain-error";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled } from "../incidents/grouping";
import { log } from "../log";
import { type Deferred, recordOrDefer } from "../reconcile/pending";
import { getObjectStore, type ObjectBody } from "../storage";
import {
  AUDIO_EVENT_TYPE,
  type AudioEvent,
  normaliseIdentifier,
  parseEvent,
  type ParsedEvent,
  toFailedCall,
  type WebhookCall,
} from "../webhook/payload";
import { startSignatureCheck } from "../webhook/signature";
import { payloadTooLarge, readWebhookBody } from "../webhook/spool";
import { storeWithOthers } from "./call-writer";
import { type PreparedCall, prepareCall } from "./store";

export { firstOfEachConversation, type PreparedCall, prepareCall, storeEach } from "./store";

/** Bodies over this are refused with 413 while they are still being read, but for recordings. */
export const WEBHOOK_MAX_BODY_BYTES = 5 * 1024 * 1024;
/** A post_call_audio event (the whole call as base64 MP3) may be this large. */
export const WEBHOOK_MAX_AUDIO_BODY_BYTES = 64 * 1024 * 1024;

export interface WebhookDelivery {
  /** The body exactly as received (held, or as it streams in): the signature covers these bytes. */
  body: Buffer | AsyncIterable<Uint8Array>;
  signatureHeader: string | null;
}

export interface IntakeHooks {
  /**
   * Called after every write to the calls table, so that cached listings are never older than
   * the newest write. Defaults to the listing cache's version bump.
   */
  onCallsChanged?: () => unknown;
}

export type IntakeOutcome =
  | { kind: "stored"; conversationId: string; payloadKey: string; geocode: GeocodeResult | null }
  | { kind: "recording"; conversationId: string; payloadKey: string; recordingKey: string }
  | { kind: "ignored"; type: string; payloadKey: string };

const storageError = (cause: unknown) =>
  new DomainError("STORAGE_ERROR", "The payload could not be stored", { cause });

const geocodingError = (cause: unknown) =>
  new DomainError("GEOCODING_ERROR", "The call was stored but its location could not be geocoded", { cause });

/** `20260314_091502` for a Unix time, in UTC. */
function stamp(unixSeconds: number): string {
  const iso = new Date(unixSeconds * 1000).toISOString();
  return `${iso.slice(0, 10).replaceAll("-", "")}_${iso.slice(11, 19).replaceAll(":", "")}`;
}

/** The documented key (docs/interface.md); its time part is event_timestamp, so a redelivery overwrites the same object. */
export function callPayloadKey(conversationId: string, eventTimestamp: number): string {
  return `calls/${conversationId}/${conversationId}_${stamp(eventTimestamp)}.json`;
}

/** Other event types are archived beside the calls, named by their type. */
function otherEventKey(type: string, rawBody: Buffer, eventTimestamp?: number, conversationId?: string): string {
  const folder = normaliseIdentifier(type).replace(/[^a-z0-9_]/g, "_").slice(0, 64) || "unknown";
  const name = conversationId ?? createHash("sha256").update(rawBody).digest("hex").slice(0, 16);
  return `events/${folder}/${name}_${stamp(eventTimestamp ?? Math.floor(Date.now() / 1000))}.json`;
}

/** The recording's key, beside the call's payloads. */
export function recordingKey(conversationId: string): string {
  return `calls/${conversationId}/${conversationId}_recording.mp3`;
}

/** The object-storage key an event's raw payload is archived under. */
export function payloadKeyOf(parsed: ParsedEvent, rawBody: Buffer): string {
  if (parsed.kind === "call" || parsed.kind === "failure") {
    return callPayloadKey(parsed.event.data.conversation_id, parsed.event.event_timestamp);
  }
  if (parsed.kind === "audio") {
    return otherEventKey(parsed.event.type, rawBody, parsed.event.event_timestamp, parsed.event.data.conversation_id);
  }
  return otherEventKey(parsed.type, rawBody, parsed.eventTimestamp, parsed.conversationId);
}

async function archive(key: string, body: ObjectBody, contentType = "application/json"): Promise<void> {
  try {
    await getObjectStore().put(key, body, contentType);
  } catch (error) {
    throw storageError(error);
  }
}

/** What storing a prepared call answers: its outcome, or the geocoder's failure once it is stored. */
export function storedCallOutcome({ call, payloadKey, geocode, geocodeFailure }: PreparedCall): IntakeOutcome {
  if (geocodeFailure !== undefined) {
    // Stored, waiting for the grouper: it groups the call by its text.
    if (groupingEnabled()) groupSoon();
    throw geocodingError(geocodeFailure);
  }
  log.info({ conversationId: call.conversationId, payloadKey, geocode: geocode?.precision ?? null }, "webhook call stored");
  return { kind: "stored", conversationId: call.conversationId, payloadKey, geocode };
}

/**
 * A call that never connected. It only creates a record: a failure reported for a conversation
 * already stored (a transcription arrived) adds its reason and number and changes nothing else.
 */
async function upsertFailedCall(db: Db, call: WebhookCall, payloadKey: string): Promise<void> {
  await db.$executeRaw`
    WITH upserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
                         transcript_length, emergency_type, location, severity, status, simulation, table_name,
                         payload_key, caller_phone, failure_reason)
      VALUES (${uuid7()}, ${call.conversationId}, ${call.occurredAt}, ${call.agentId}, ${call.summary}, false, 0, 0,
              ${call.emergencyType}, '', ${call.severity}, ${call.status}, false, 'calls', ${payloadKey},
              ${call.callerPhone}, ${call.failureReason})
      ON CONFLICT (conversation_id) DO UPDATE SET
        failure_reason = EXCLUDED.failure_reason,
        caller_phone = COALESCE(calls.caller_phone, EXCLUDED.caller_phone),
        updated_at = CURRENT_TIMESTAMP
      RETURNING id, status, (xmax = 0) AS inserted
    )
    INSERT INTO call_status_changes (call_id, from_status, status, changed_by)
    SELECT id, NULL, status, 'webhook' FROM upserted WHERE inserted`;
}

/** Links a recording to its conversation, whether or not the call has arrived yet. */
async function linkRecording(db: Db, conversationId: string, key: string, sizeBytes: number): Promise<void> {
  await db.$executeRaw`
    INSERT INTO call_recordings (conversation_id, object_key, content_type, size_bytes)
    VALUES (${conversationId}, ${key}, 'audio/mpeg', ${BigInt(sizeBytes)})
    ON CONFLICT (conversation_id) DO UPDATE SET
      object_key = EXCLUDED.object_key, size_bytes = EXCLUDED.size_bytes, received_at = CURRENT_TIMESTAMP`;
}

/** Stores a decoded recording and links it; only ever called once the signature checked out. */
async function storeRecording(event: AudioEvent, audio: ObjectBody, sizeBytes: number, payloadKey: string): Promise<IntakeOutcome> {
  const conversationId = event.data.conversation_id;
  const key = recordingKey(conversationId);
  await archive(key, audio, "audio/mpeg");
  await withCallStore((db) => linkRecording(db, conversationId, key, sizeBytes));
  log.info({ conversationId, recordingKey: key, sizeBytes }, "webhook recording stored");
  return { kind: "recording", conversationId, payloadKey, recordingKey: key };
}

/**
 * Turns an event whose raw payload is already archived under `payloadKey` into stored data: a
 * call, a failed call, a recording (of a body held whole), or nothing for another type. This is
 * the step a later redelivery, or a reconciler reading archived payloads, repeats: each write is
 * idempotent (same key, same record).
 */
export async function ingestArchivedEvent(
  parsed: ParsedEvent,
  payloadKey: string,
  hooks: IntakeHooks = { onCallsChanged: bumpCallsVersion },
): Promise<IntakeOutcome> {
  switch (parsed.kind) {
    case "other":
      log.info({ type: parsed.type, payloadKey }, "webhook event of an unknown type archived");
      return { kind: "ignored", type: parsed.type, payloadKey };
    case "audio": {
      const audio = Buffer.from(parsed.event.data.full_audio, "base64");
      return storeRecording(parsed.event, audio, audio.length, payloadKey);
    }
    case "failure": {
      const call = toFailedCall(parsed.event);
      await withCallStore((db) => upsertFailedCall(db, call, payloadKey));
      await hooks.onCallsChanged?.();
      log.info({ conversationId: call.conversationId, payloadKey, reason: call.failureReason }, "webhook failed call stored");
      return { kind: "stored", conversationId: call.conversationId, payloadKey, geocode: null };
    }
    case "call": {
      const prepared = await prepareCall(parsed.event, payloadKey);
      await storeWithOthers(prepared);
      await hooks.onCallsChanged?.();
      return storedCallOutcome(prepared);
    }
  }
}

const tooLargeForJson = () =>
  payloadTooLarge(`Request body exceeds ${WEBHOOK_MAX_BODY_BYTES} bytes (only a post_call_audio event may be larger)`);

/** The skeleton of a spooled body, when it is a post_call_audio event whose audio was spooled; else 413. */
function spooledAudioEvent(skeleton: Buffer, marker: string): unknown {
  let event: unknown;
  try {
    event = JSON.parse(skeleton.toString("utf8"));
  } catch {
    throw tooLargeForJson();
  }
  const { type, data } = (event ?? {}) as { type?: unknown; data?: { full_audio?: unknown } };
  if (type !== AUDIO_EVENT_TYPE || data?.full_audio !== marker) throw tooLargeForJson();
  return event;
}

/**
 * The order that loses nothing: verify the signature over the raw bytes, parse, archive the
 * payload (the bytes as received), then store what it says. Once the payload is archived, a
 * database that cannot be reached defers the storing (lib/reconcile) and the delivery succeeds;
 * any other failure answers 500 at the step that failed, and the platform's retry then redoes
 * every step, each one idempotent. A body over
 * WEBHOOK_MAX_BODY_BYTES can only be a recording: it is spooled to disk and decoded on the way
 * (lib/webhook/spool.ts), and published only once the signature checked out.
 */
export async function receiveWebhook(
  delivery: WebhookDelivery,
  hooks: IntakeHooks = { onCallsChanged: bumpCallsVersion },
): Promise<IntakeOutcome | Deferred> {
  const config = getConfig();
  const signature = startSignatureCheck(delivery.signatureHeader, {
    secret: config.VOICEAGENT_WEBHOOK_SECRET,
    required: config.VOICEAGENT_REQUIRE_SIGNATURE,
  });
  const chunks = Buffer.isBuffer(delivery.body) ? [delivery.body] : delivery.body;
  const body = await readWebhookBody(
    chunks,
    { memoryBytes: WEBHOOK_MAX_BODY_BYTES, maxBytes: WEBHOOK_MAX_AUDIO_BODY_BYTES },
    (chunk) => signature.update(chunk),
  );
  if (body.kind === "memory") {
    signature.verify();
    const parsed = parseEvent(parseJson(body.bytes.toString("utf8")));
    const payloadKey = payloadKeyOf(parsed, body.bytes);
    await archive(payloadKey, body.bytes);
    return recordOrDefer(payloadKey, () => ingestArchivedEvent(parsed, payloadKey, hooks));
  }
  try {
    signature.verify();
    const skeleton = spooledAudioEvent(body.skeleton, body.marker);
    const parsed = parseEvent(skeleton);
    if (parsed.kind !== "audio" || body.decodedPath === null) throw tooLargeForJson();
    const payloadKey = otherEventKey(parsed.event.type, body.skeleton, parsed.event.event_timestamp, parsed.event.data.conversation_id);
    await archive(payloadKey, createReadStream(body.rawPath));
    const decodedPath = body.decodedPath;
    return await recordOrDefer(payloadKey, () =>
      storeRecording(parsed.event, createReadStream(decodedPath), body.decodedBytes, payloadKey),
    );
  } finally {
    await body.cleanup();
  }
}
