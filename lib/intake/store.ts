import { withCallStore } from "../calls/store";
import type { Db } from "../db/client";
import { driverErrorCause } from "../db/driver-error";
import { Prisma } from "../db/generated/client";
import { uuid7 } from "../db/uuid7";
import { getGeocoder, type GeocodeResult } from "../geocoding";
import { groupingEnabled, placementQuery } from "../incidents/grouping";
import { type CallEvent, toWebhookCall, type WebhookCall } from "../webhook/payload";
import { GEOCODE_TEXT_LIMIT } from "../webhook/sanitise";

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

const latitudeOf = (call: WebhookCall, { geocode }: PreparedCall) => call.reported?.latitude ?? geocode?.latitude ?? null;
const longitudeOf = (call: WebhookCall, { geocode }: PreparedCall) => call.reported?.longitude ?? geocode?.longitude ?? null;
const geocoderFailed = (_: WebhookCall, { geocodeFailure }: PreparedCall) => geocodeFailure !== undefined;

/**
 * One record per conversation_id, for a batch of calls of distinct conversations, in one statement:
 * insert, or update on a conflict (so two deliveries racing to create a call end as one create and
 * one update), and the creation's history row only when it was an insert (`xmax = 0`).
 * A redelivery refreshes what the platform knows (summary, type, severity, location, coordinates,
 * payload key, caller's number when it has one) but leaves the status alone: a dispatcher may have
 * moved it. When the geocoder failed, a redelivery keeps the earlier point.
 * Grouping (docs/incidents.md): the same statement places each new call in its incident
 * (placementQuery, which sees the calls of the batch among themselves), so a call is written
 * once. A call whose geocoding failed waits for the grouper (grouped by its text), and a
 * redelivery is not regrouped. A delivery of the same conversation committed by another instance
 * between this statement's start and its turn at the feed lock makes it fail on the incident's
 * foreign key at commit; storeEach then stores the batch's calls one by one.
 */
export async function storeCalls(db: Pick<Db, "$executeRaw">, prepared: PreparedCall[]): Promise<void> {
  if (prepared.length === 0) return;
  const column = <T>(value: (call: WebhookCall, prepared: PreparedCall) => T): T[] => prepared.map((entry) => value(entry.call, entry));
  const input = Prisma.sql`input AS (
    SELECT * FROM unnest(
      ${prepared.map(() => uuid7())}::text[], ${column((call) => call.conversationId)}::text[],
      ${column((call) => call.occurredAt.toISOString())}::timestamptz[], ${column((call) => call.agentId)}::text[],
      ${column((call) => call.summary)}::text[], ${column((call) => call.callSuccessful)}::boolean[],
      ${column((call) => call.durationSecs)}::int[], ${column((call) => call.transcriptLength)}::int[],
      ${column((call) => call.emergencyType)}::text[], ${column((call) => call.location)}::text[],
      ${column(latitudeOf)}::float8[], ${column(longitudeOf)}::float8[],
      ${column((call, { geocode }) => (call.reported ? "reported" : (geocode?.source ?? null)))}::text[],
      ${column((call) => call.severity)}::text[], ${column((call) => call.status)}::text[],
      ${column((_, { payloadKey }) => payloadKey)}::text[], ${column((call) => call.callerPhone)}::text[],
      ${column((call) => call.failureReason)}::text[], ${column(geocoderFailed)}::boolean[]
    ) WITH ORDINALITY AS t(id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
           transcript_length, emergency_type, location, latitude, longitude, geocode_source, severity, status,
           payload_key, caller_phone, failure_reason, geocoder_failed, seq)
  )`;
  const grouping = groupingEnabled();
  const write = Prisma.sql`upserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
                         transcript_length, emergency_type, location, latitude, longitude, geocode_source,
                         severity, status, simulation, table_name, payload_key, caller_phone, failure_reason,
                         incident_id, grouped_at, grouping_pending)
      SELECT id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs, transcript_length,
        emergency_type, location, latitude, longitude, geocode_source, severity, status, false, 'calls', payload_key,
        caller_phone, failure_reason,
        ${grouping ? Prisma.sql`(SELECT p.incident_id FROM placed p WHERE p.id = input.id)` : Prisma.sql`NULL`},
        CASE WHEN ${grouping} AND NOT geocoder_failed THEN now() END,
        ${grouping} AND geocoder_failed
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
  if (!grouping) {
    await db.$executeRaw`WITH ${input}, ${write}`;
    return;
  }
  await db.$executeRaw(
    placementQuery(
      Prisma.sql`
        SELECT t.id, t.id AS own, t.seq, t.emergency_type AS type, t.occurred_at AS at, t.latitude AS lat,
          t.longitude AS lon, t.location, false AS simulation, NULL::text AS exercise_id
        FROM input t
        WHERE NOT t.geocoder_failed AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.conversation_id = t.conversation_id)`,
      { before: input, then: Prisma.sql`, ${write}` },
    ),
  );
}

/**
 * The first `size` items of distinct conversations, in order, and the rest, in order. A statement
 * of storeCalls upserts a conversation's row once, so its later items wait for a later batch,
 * which keeps each conversation's deliveries in the order they came.
 */
export function firstOfEachConversation<T>(items: T[], size: number, conversationOf: (item: T) => string): { batch: T[]; rest: T[] } {
  const batch: T[] = [];
  const rest: T[] = [];
  const conversations = new Set<string>();
  for (const item of items) {
    const conversation = conversationOf(item);
    if (batch.length < size && !conversations.has(conversation)) {
      conversations.add(conversation);
      batch.push(item);
    } else {
      rest.push(item);
    }
  }
  return { batch, rest };
}

/** PostgreSQL's SQLSTATE of a failed statement, through Prisma's driver adapter or node-postgres. */
function sqlState(error: unknown): string | undefined {
  for (let cause = error; cause instanceof Object; cause = (cause as { cause?: unknown }).cause) {
    const code = driverErrorCause(cause)?.originalCode ?? (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Stores a batch (storeCalls) and answers each call's outcome. When the database refuses the
 * batch's statement for what a row holds (SQLSTATE classes 22 and 23: a value out of range, a
 * constraint), each call is stored on its own, one after another, so that such a call fails only
 * itself. Any other failure (the database down, a timeout) fails the whole batch at once: trying
 * each call would only wait that many times longer before each webhook defers its call.
 */
export async function storeEach(prepared: PreparedCall[]): Promise<PromiseSettledResult<void>[]> {
  try {
    await withCallStore((db) => storeCalls(db, prepared));
    return prepared.map(() => ({ status: "fulfilled", value: undefined }));
  } catch (error) {
    const state = sqlState(error);
    if (prepared.length === 1 || !(state?.startsWith("22") || state?.startsWith("23"))) {
      return prepared.map(() => ({ status: "rejected", reason: error }));
    }
    const outcomes: PromiseSettledResult<void>[] = [];
    for (const call of prepared) {
      try {
        await withCallStore((db) => storeCalls(db, [call]));
        outcomes.push({ status: "fulfilled", value: undefined });
      } catch (reason) {
        outcomes.push({ status: "rejected", reason });
      }
    }
    return outcomes;
  }
}
