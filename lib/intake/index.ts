import { createHash } from "node:crypto";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { getGeocoder, type GeocodeResult } from "../geocoding";
import { ApiError, databaseError } from "../http/api-error";
import { parseJson } from "../http/body";
import { log } from "../log";
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
   * the newest write. The route passes the listing cache's version bump here.
   */
  onCallsChanged?: () => unknown;
}

export type IntakeOutcome =
  | { kind: "stored"; conversationId: string; payloadKey: string; geocode: GeocodeResult | null }
  | { kind: "ignored"; type: string; payloadKey: string };

function withCause(error: ApiError, cause: unknown): ApiError {
  error.cause = cause;
  return error;
}

const storageError = (cause: unknown) =>
  withCause(new ApiError(500, "STORAGE_ERROR", "Storage error", "The payload could not be stored"), cause);

const geocodingError = (cause: unknown) =>
  withCause(
    new ApiError(500, "GEOCODING_ERROR", "Geocoding error", "The call was stored but its location could not be geocoded"),
    cause,
  );

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

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "P2002";
}

interface StoredCall {
  id: string;
  latitude: number | null;
  longitude: number | null;
  geocodeSource: string | null;
}

/**
 * One record per conversation_id. A redelivery refreshes what the platform knows (summary, type,
 * severity, location, payload key) but leaves the status alone: a dispatcher may have moved it.
 * Coordinates: reported ones are taken; with no location they are cleared; otherwise they stay
 * until geocoding answers, so a failing geocoder on redelivery keeps the earlier point.
 */
async function upsertCall(call: WebhookCall, payloadKey: string): Promise<StoredCall> {
  const fields = {
    agentId: call.agentId,
    occurredAt: call.occurredAt,
    summary: call.summary,
    callSuccessful: call.callSuccessful,
    durationSecs: call.durationSecs,
    transcriptLength: call.transcriptLength,
    emergencyType: call.emergencyType,
    severity: call.severity,
    location: call.location,
    payloadKey,
  };
  const coordinates = call.reported
    ? { ...call.reported, geocodeSource: "reported" }
    : call.location
      ? undefined
      : { latitude: null, longitude: null, geocodeSource: null };
  const db = await getDb();
  const upsert = () =>
    db.call.upsert({
      where: { conversationId: call.conversationId },
      create: {
        conversationId: call.conversationId,
        ...fields,
        ...coordinates,
        status: call.status,
        simulation: false,
        scenario: null,
        scenarioName: null,
        tableName: "calls",
        history: { create: { fromStatus: null, status: call.status, changedBy: "webhook" } },
      },
      update: { ...fields, ...coordinates },
      select: { id: true, latitude: true, longitude: true, geocodeSource: true },
    });
  try {
    return await upsert();
  } catch (error) {
    // Two deliveries of one new call raced to create it: the second becomes the update.
    if (!isUniqueViolation(error)) throw error;
    return await upsert();
  }
}

async function databaseStep<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw withCause(databaseError(), error);
  }
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
  await databaseStep(async () =>
    (await getDb()).call.update({ where: { id: stored.id }, data: { latitude, longitude, geocodeSource } }),
  );
  await hooks.onCallsChanged?.();
  return result;
}

/**
 * The order that loses nothing: verify the signature over the raw bytes, parse, archive the
 * payload, upsert the record, geocode. A failure answers 500 at the step that failed; the
 * platform's retry then redoes every step, and each one is idempotent (same key, same record).
 */
export async function receiveWebhook(delivery: WebhookDelivery, hooks: IntakeHooks = {}): Promise<IntakeOutcome> {
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
  const stored = await databaseStep(() => upsertCall(call, payloadKey));
  await hooks.onCallsChanged?.();
  const geocode = !call.reported && call.location ? await geocodeStoredCall(stored, call.location, hooks) : null;
  log.info(
    { conversationId: call.conversationId, payloadKey, geocode: geocode?.precision ?? null },
    "webhook call stored",
  );
  return { kind: "stored", conversationId: call.conversationId, payloadKey, geocode };
}
