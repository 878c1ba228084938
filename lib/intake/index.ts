import { createHash } from "node:crypto";
import { bumpCallsVersion } from "../calls/cache";
import { withCallStore } from "../calls/store";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";
import { getGeocoder, type GeocodeResult } from "../geocoding";
import { DomainError, parseJson } from "../domain-error";
import { log } from "../log";
import { type Deferred, recordOrDefer } from "../reconcile/pending";
import { getObjectStore } from "../storage";
import { normaliseIdentifier, parseEvent, toWebhookCall, type WebhookCall } from "../webhook/payload";
import { verifySignature } from "../webhook/signature";

/** Bodies over this are refused with 413 while they are still being read. */
export const WEBHOOK_MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface WebhookDelivery {
  /** The body exactly as received: the signature covers these bytes. */
  rawBody: Buffer;
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

/** The spec's key; its time part is event_timestamp, so a redelivery overwrites the same object. */
export function callPayloadKey(conversationId: string, eventTimestamp: number): string {
  return `calls/${conversationId}/${conversationId}_${stamp(eventTimestamp)}.json`;
}

/** Other event types are archived beside the calls, named by their type. */
function otherEventKey(type: string, rawBody: Buffer, eventTimestamp?: number, conversationId?: string): string {
  const folder = normaliseIdentifier(type).replace(/[^a-z0-9_]/g, "_").slice(0, 64) || "unknown";
  const name = conversationId ?? createHash("sha256").update(rawBody).digest("hex").slice(0, 16);
  return `events/${folder}/${name}_${stamp(eventTimestamp ?? Math.floor(Date.now() / 1000))}.json`;
}

async function archive(key: string, rawText: string): Promise<void> {
  try {
    await getObjectStore().put(key, rawText, "application/json");
  } catch (error) {
    throw storageError(error);
  }
}

interface StoredCall {
  id: string;
  latitude: number | null;
  longitude: number | null;
  geocodeSource: string | null;
}

/**
 * One record per conversation_id, in one statement: insert, or update on a conflict (so two
 * deliveries racing to create a call end as one create and one update), and the creation's history
 * row only when it was an insert (`xmax = 0`).
 * A redelivery refreshes what the platform knows (summary, type, severity, location, payload key)
 * but leaves the status alone: a dispatcher may have moved it. Coordinates: reported ones are
 * taken; with no location they are cleared; otherwise they stay until geocoding answers, so a
 * failing geocoder on redelivery keeps the earlier point.
 */
async function upsertCall(db: Db, call: WebhookCall, payloadKey: string): Promise<StoredCall> {
  const keepCoordinates = !call.reported && call.location !== "";
  const [row] = await db.$queryRaw<StoredCall[]>`
    WITH upserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
                         transcript_length, emergency_type, location, latitude, longitude, geocode_source,
                         severity, status, simulation, table_name, payload_key)
      VALUES (${uuid7()}, ${call.conversationId}, ${call.occurredAt}, ${call.agentId}, ${call.summary},
              ${call.callSuccessful}, ${call.durationSecs}, ${call.transcriptLength}, ${call.emergencyType},
              ${call.location}, ${call.reported?.latitude ?? null}, ${call.reported?.longitude ?? null},
              ${call.reported ? "reported" : null}, ${call.severity}, ${call.status}, false, 'calls', ${payloadKey})
      ON CONFLICT (conversation_id) DO UPDATE SET
        occurred_at = EXCLUDED.occurred_at, agent_id = EXCLUDED.agent_id, summary = EXCLUDED.summary,
        call_successful = EXCLUDED.call_successful, duration_secs = EXCLUDED.duration_secs,
        transcript_length = EXCLUDED.transcript_length, emergency_type = EXCLUDED.emergency_type,
        location = EXCLUDED.location, severity = EXCLUDED.severity, payload_key = EXCLUDED.payload_key,
        latitude = CASE WHEN ${keepCoordinates} THEN calls.latitude ELSE EXCLUDED.latitude END,
        longitude = CASE WHEN ${keepCoordinates} THEN calls.longitude ELSE EXCLUDED.longitude END,
        geocode_source = CASE WHEN ${keepCoordinates} THEN calls.geocode_source ELSE EXCLUDED.geocode_source END,
        updated_at = CURRENT_TIMESTAMP
      RETURNING id, status, latitude, longitude, geocode_source, (xmax = 0) AS inserted
    ), creation AS (
      INSERT INTO call_status_changes (call_id, from_status, status, changed_by)
      SELECT id, NULL, status, 'webhook' FROM upserted WHERE inserted
    )
    SELECT id, latitude, longitude, geocode_source AS "geocodeSource" FROM upserted`;
  return row;
}

/** Geocodes the record's location and stores the answer (null coordinates when nothing matched). */
async function geocodeStoredCall(stored: StoredCall, location: string, hooks: IntakeHooks): Promise<GeocodeResult | null> {
  let result: GeocodeResult | null;
  try {
    result = await getGeocoder().geocode(location);
  } catch (error) {
    throw geocodingError(error);
  }
  const latitude = result?.latitude ?? null;
  const longitude = result?.longitude ?? null;
  const geocodeSource = result?.source ?? null;
  if (stored.latitude === latitude && stored.longitude === longitude && stored.geocodeSource === geocodeSource) {
    return result;
  }
  await withCallStore((db) =>
    db.call.update({ where: { id: stored.id }, data: { latitude, longitude, geocodeSource } }),
  );
  await hooks.onCallsChanged?.();
  return result;
}

/** Records a call whose raw payload is already archived under `payloadKey`; idempotent. */
async function ingestArchivedCall(call: WebhookCall, payloadKey: string, hooks: IntakeHooks): Promise<IntakeOutcome> {
  const stored = await withCallStore((db) => upsertCall(db, call, payloadKey));
  await hooks.onCallsChanged?.();
  const geocode = !call.reported && call.location ? await geocodeStoredCall(stored, call.location, hooks) : null;
  log.info(
    { conversationId: call.conversationId, payloadKey, geocode: geocode?.precision ?? null },
    "webhook call stored",
  );
  return { kind: "stored", conversationId: call.conversationId, payloadKey, geocode };
}

/** The raw bytes of an archived payload into stored data: what the reconciler repeats. */
export async function ingestPayload(
  rawBody: Buffer,
  payloadKey: string,
  hooks: IntakeHooks = { onCallsChanged: bumpCallsVersion },
): Promise<IntakeOutcome> {
  const parsed = parseEvent(parseJson(rawBody.toString("utf8")));
  if (parsed.kind === "other") return { kind: "ignored", type: parsed.type, payloadKey };
  return ingestArchivedCall(toWebhookCall(parsed.event), payloadKey, hooks);
}

/**
 * The order that loses nothing: verify the signature over the raw bytes, parse, archive the
 * payload, upsert the record, geocode. Once the payload is archived, a database that cannot be
 * reached defers the record (lib/reconcile) and the delivery succeeds; any other failure answers
 * 500 at the step that failed, and the platform's retry redoes every step, each one idempotent.
 */
export async function receiveWebhook(
  delivery: WebhookDelivery,
  hooks: IntakeHooks = { onCallsChanged: bumpCallsVersion },
): Promise<IntakeOutcome | Deferred> {
  const config = getConfig();
  verifySignature(delivery.signatureHeader, delivery.rawBody, {
    secret: config.VOICEAGENT_WEBHOOK_SECRET,
    required: config.VOICEAGENT_REQUIRE_SIGNATURE,
  });
  const rawText = delivery.rawBody.toString("utf8");
  const parsed = parseEvent(parseJson(rawText));

  if (parsed.kind === "other") {
    const payloadKey = otherEventKey(parsed.type, delivery.rawBody, parsed.eventTimestamp, parsed.conversationId);
    await archive(payloadKey, rawText);
    log.info({ type: parsed.type, payloadKey }, "webhook event ignored and archived");
    return { kind: "ignored", type: parsed.type, payloadKey };
  }

  const call = toWebhookCall(parsed.event);
  const payloadKey = callPayloadKey(call.conversationId, parsed.event.event_timestamp);
  await archive(payloadKey, rawText);
  return recordOrDefer(payloadKey, () => ingestArchivedCall(call, payloadKey, hooks));
}
