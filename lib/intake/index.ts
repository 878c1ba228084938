import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { bumpCallsVersion } from "../calls/cache";
import { withCallStore } from "../calls/store";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";
import { getGeocoder, type GeocodeResult } from "../geocoding";
import { DomainError, parseJson } from "../domain-error";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled, groupingRule } from "../incidents/grouping";
import { log } from "../log";
import { type Deferred, recordOrDefer } from "../reconcile/pending";
import { getObjectStore, type ObjectBody } from "../storage";
import {
  AUDIO_EVENT_TYPE,
  type AudioEvent,
  type CallEvent,
  normaliseIdentifier,
  parseEvent,
  type ParsedEvent,
  toFailedCall,
  toWebhookCall,
  type WebhookCall,
} from "../webhook/payload";
import { GEOCODE_TEXT_LIMIT } from "../webhook/sanitise";
import { startSignatureCheck } from "../webhook/signature";
import { payloadTooLarge, readWebhookBody } from "../webhook/spool";

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

/** A call event made ready to store: parsed, and geocoded from its text when it has no coordinates. */
export interface PreparedCall {
  call: WebhookCall;
  payloadKey: string;
  /** The geocoder's answer (null: nothing matched, or nothing to geocode). */
  geocode: GeocodeResult | null;
  /** Why the geocoder failed, when it did: the call is stored without new coordinates. */
  geocodeFailure?: unknown;
}

/**
 * Geocodes before storing, so that the call is written once, with its coordinates and in its
 * incident. The payload is already archived: a geocoder that fails loses nothing.
 */
export async function prepareCall(event: CallEvent, payloadKey: string): Promise<PreparedCall> {
  const call = toWebhookCall(event);
  if (call.reported || call.location === "") return { call, payloadKey, geocode: null };
  try {
    // Bounded work per field: no real address is longer, and a megabyte would take seconds.
    return { call, payloadKey, geocode: await getGeocoder().geocode(call.location.slice(0, GEOCODE_TEXT_LIMIT)) };
  } catch (error) {
    return { call, payloadKey, geocode: null, geocodeFailure: error };
  }
}

/**
 * One record per conversation_id, for a batch of calls of distinct conversations, in one statement:
 * insert, or update on a conflict (so two deliveries racing to create a call end as one create and
 * one update), and the creation's history row only when it was an insert (`xmax = 0`).
 * A redelivery refreshes what the platform knows (summary, type, severity, location, coordinates,
 * payload key, caller's number when it has one) but leaves the status alone: a dispatcher may have
 * moved it. When the geocoder failed, a redelivery keeps the earlier point.
 * Grouping (docs/incidents.md): a single call is placed in its incident by this statement
 * (incident_for_call); the calls of a batch, which a per-row lookup would not see among themselves,
 * and a call whose geocoding failed (grouped by its text) wait for the grouper. A redelivery is not
 * regrouped.
 */
export async function storeCalls(db: Pick<Db, "$executeRaw">, prepared: PreparedCall[]): Promise<void> {
  if (prepared.length === 0) return;
  const grouping = groupingEnabled();
  const inline = prepared.length === 1;
  const column = <T>(value: (call: WebhookCall, prepared: PreparedCall) => T): T[] => prepared.map((entry) => value(entry.call, entry));
  const rules = column((call) => groupingRule(call.emergencyType));
  await db.$executeRaw`
    WITH input AS (
      SELECT * FROM unnest(
        ${column(() => uuid7())}::text[], ${column((call) => call.conversationId)}::text[],
        ${column((call) => call.occurredAt.toISOString())}::timestamptz[], ${column((call) => call.agentId)}::text[],
        ${column((call) => call.summary)}::text[], ${column((call) => call.callSuccessful)}::boolean[],
        ${column((call) => call.durationSecs)}::int[], ${column((call) => call.transcriptLength)}::int[],
        ${column((call) => call.emergencyType)}::text[], ${column((call) => call.location)}::text[],
        ${column((call, { geocode }) => call.reported?.latitude ?? geocode?.latitude ?? null)}::float8[],
        ${column((call, { geocode }) => call.reported?.longitude ?? geocode?.longitude ?? null)}::float8[],
        ${column((call, { geocode }) => (call.reported ? "reported" : (geocode?.source ?? null)))}::text[],
        ${column((call) => call.severity)}::text[], ${column((call) => call.status)}::text[],
        ${column((_, { payloadKey }) => payloadKey)}::text[], ${column((call) => call.callerPhone)}::text[],
        ${column((call) => call.failureReason)}::text[],
        ${column((_, { geocodeFailure }) => geocodeFailure !== undefined)}::boolean[],
        ${rules.map((rule) => rule.radiusMetres)}::float8[], ${rules.map((rule) => rule.windowMinutes * 60)}::float8[]
      ) AS t(id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs, transcript_length,
             emergency_type, location, latitude, longitude, geocode_source, severity, status, payload_key, caller_phone,
             failure_reason, geocoder_failed, radius, window_s)
    ), upserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
                         transcript_length, emergency_type, location, latitude, longitude, geocode_source,
                         severity, status, simulation, table_name, payload_key, caller_phone, failure_reason,
                         incident_id, grouped_at, grouping_pending)
      SELECT id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs, transcript_length,
        emergency_type, location, latitude, longitude, geocode_source, severity, status, false, 'calls', payload_key,
        caller_phone, failure_reason,
        CASE WHEN ${grouping && inline} AND NOT geocoder_failed THEN incident_for_call(NULL, emergency_type, occurred_at,
          latitude, longitude, location, false, NULL, radius, window_s) END,
        CASE WHEN ${grouping && inline} AND NOT geocoder_failed THEN now() END,
        ${grouping} AND (NOT ${inline} OR geocoder_failed)
      FROM input
      ON CONFLICT (conversation_id) DO UPDATE SET
        occurred_at = EXCLUDED.occurred_at, agent_id = EXCLUDED.agent_id, summary = EXCLUDED.summary,
        call_successful = EXCLUDED.call_successful, duration_secs = EXCLUDED.duration_secs,
        transcript_length = EXCLUDED.transcript_length, emergency_type = EXCLUDED.emergency_type,
        location = EXCLUDED.location, severity = EXCLUDED.severity, payload_key = EXCLUDED.payload_key,
        caller_phone = COALESCE(EXCLUDED.caller_phone, calls.caller_phone),
        (latitude, longitude, geocode_source) = (
          SELECT CASE WHEN i.geocoder_failed THEN calls.latitude ELSE EXCLUDED.latitude END,
                 CASE WHEN i.geocoder_failed THEN calls.longitude ELSE EXCLUDED.longitude END,
                 CASE WHEN i.geocoder_failed THEN calls.geocode_source ELSE EXCLUDED.geocode_source END
          FROM input i WHERE i.conversation_id = EXCLUDED.conversation_id),
        updated_at = CURRENT_TIMESTAMP
      RETURNING id, status, (xmax = 0) AS inserted
    )
    INSERT INTO call_status_changes (call_id, from_status, status, changed_by)
    SELECT id, NULL, status, 'webhook' FROM upserted WHERE inserted`;
  if (grouping && !inline) groupSoon();
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
      await withCallStore((db) => storeCalls(db, [prepared]));
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
