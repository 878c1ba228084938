import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { prepared } from "../../db/prepared";
import type { CivicAddress, GeocodeResult } from "../../geocoding/types";
import { uuid7 } from "../../db/uuid7";
import type { HandedOverCall, TranscriptTurn } from "../handed-over";
import { cleanText } from "../sanitise";
import type { CorrectedField } from "../schema";

/**
 * Where a call is, how exact that is and who said so (docs/geocoding.md), and the address the
 * centre's GIS matched, in its standard form, with the record's civic address elements (null:
 * another source placed it).
 */
export type LocatedPoint = Omit<GeocodeResult, "label" | "civic"> & { matched: string | null; civic: CivicAddress | null };

/** A geocode as a call stores it: the label and record only when the centre's GIS matched the address (docs/incidents.md, "One address"). */
export function locatedPoint({ label, civic, ...point }: GeocodeResult): LocatedPoint {
  const matched = point.source === "centre_gis";
  return { ...point, matched: matched ? label : null, civic: matched ? (civic ?? null) : null };
}

/** The matched record as its column stores it (JSON text for a `jsonb` cast). */
export const civicColumn = (point: LocatedPoint | null | undefined): string | null => (point?.civic ? JSON.stringify(point.civic) : null);

/**
 * The grouping rule as a statement (lib/incidents/grouping.ts placementQuery): given a query of
 * the calls to place, the WITH RECURSIVE list that places them, opened by `before` and followed by
 * `then`, the statement that writes them. Grouping passes it in; the door never imports grouping.
 */
export type Placement = (calls: Prisma.Sql, around: { before: Prisma.Sql; then: Prisma.Sql }) => Prisma.Sql;

/** A call the voice platform handed over, ready to store. */
export interface ReceivedCall {
  call: HandedOverCall;
  /** Where the raw payload is kept; null for an exercise's call, which has none. */
  payloadKey: string | null;
  /** Where it is: reported by the agent, or geocoded from its text; null when unknown. */
  point: LocatedPoint | null;
  /** The geocoder failed: a redelivery keeps the earlier point, and a new call waits for the grouper. */
  geocoderFailed: boolean;
  /** The delivery was signed (or carried the platform's credential); an unverified one creates a call, never changes one. */
  verified: boolean;
}

/**
 * A redelivery's new value and original of a field a dispatcher may have corrected
 * (lib/calls/write/write-corrections.ts), for the update's row `i` of the input: an event without the
 * analysis changes neither; a corrected field keeps the correction, the agent's value its original.
 */
function corrected(column: CorrectedField, says = Prisma.sql`i.has_analysis`): Prisma.Sql {
  const [value, original] = [Prisma.raw(column), Prisma.raw(`original_${column}`)];
  return Prisma.sql`CASE WHEN NOT ${says} OR calls.${original} IS NOT NULL THEN calls.${value} ELSE EXCLUDED.${value} END,
    CASE WHEN NOT ${says} OR calls.${original} IS NULL THEN calls.${original} ELSE EXCLUDED.${value} END`;
}

/**
 * Whether the event says where the call is: an event with the analysis, unless the analysis has
 * no location and the agent reported one live (lib/calls/write/live.ts), which then stays with its point.
 */
const saysWhere = Prisma.sql`(i.has_analysis AND NOT (EXCLUDED.location = '' AND calls.live_located_at IS NOT NULL))`;

/**
 * What GET /api/calls?q= searches of a transcript: every turn's text, one line each, at most
 * SEARCHED_TRANSCRIPT_LIMIT characters (a real call's is a few thousand; a 5 MB payload of 100,000
 * turns would otherwise cost its trigram index entry megabytes). The turns are kept whole.
 */
export const SEARCHED_TRANSCRIPT_LIMIT = 100_000;
export const transcriptText = (turns: readonly TranscriptTurn[]): string =>
  cleanText(turns.map((turn) => turn.text).join("\n"), SEARCHED_TRANSCRIPT_LIMIT);

/**
 * One record per conversation_id, for calls of distinct conversations, in one statement: insert,
 * or update on a conflict (so two deliveries racing to create a call end as one create and one
 * update), and the creation's history row only when it was an insert (`xmax = 0`).
 * A redelivery refreshes what the platform knows (summary, type, severity, location, coordinates,
 * payload key, caller's number and recording link when it has one) but leaves the status alone: a
 * dispatcher may have moved it. A field a dispatcher corrected keeps the correction (and its
 * location the corrected point); the redelivered value becomes the agent's original beside it.
 * When the geocoder failed, a redelivery keeps the earlier point. An unverified delivery (unsigned)
 * only creates: for a stored call it changes nothing, its transcript included; a verified one
 * makes the call verified.
 * An analysis without a location keeps the location (and point) the agent reported live.
 * An event without the analysis (`hasAnalysis` false: Retell's call_ended, which comes before or
 * after its call_analyzed) never overwrites the analysis' fields (summary, call_successful, type,
 * severity, location, point, and their originals): whichever order the two arrive in, and however
 * often, the record ends with the analysis.
 * Grouping (docs/incidents.md): the same statement places each new call in its incident by the
 * `placement` the caller passes (lib/incidents/grouping.ts placementQuery, which sees the calls of
 * the batch among themselves; undefined while grouping is off), so a call is written once. The transcript's turns and text go into call_transcripts in the same statement (a
 * redelivery replaces them; an event without the analysis, which carries no conversation, leaves
 * them). A call whose geocoding failed waits for the grouper (grouped by its text), and a
 * redelivery is not regrouped. A call stored without its analysis is not placed (an incident of
 * its own, `awaiting_analysis`) until the analysis arrives; then it waits for the grouper, which
 * places it by what the analysis says. A call the agent reported live (./live.ts) is completed the same
 * way: its analysis replaces what the agent said live (a correction kept), it leaves the line, and
 * its incident stays. A delivery of the same conversation committed by another instance
 * between this statement's start and its turn at the feed lock makes it fail on the incident's
 * foreign key at commit; the caller then stores the calls one by one.
 */
export async function upsertReceivedCalls(
  db: Pick<Db, "$executeRaw">,
  received: readonly ReceivedCall[],
  placement: Placement | undefined,
): Promise<void> {
  const column = <T>(value: (entry: ReceivedCall) => T): T[] => received.map(value);
  const input = Prisma.sql`input AS (
    SELECT * FROM unnest(
      ${received.map(() => uuid7())}::text[], ${column(({ call }) => call.conversationId)}::text[],
      ${column(({ call }) => call.occurredAt.toISOString())}::timestamptz[], ${column(({ call }) => call.agentId)}::text[],
      ${column(({ call }) => call.summary)}::text[], ${column(({ call }) => call.callSuccessful)}::boolean[],
      ${column(({ call }) => call.durationSecs)}::int[], ${column(({ call }) => call.transcriptLength)}::int[],
      ${column(({ call }) => call.emergencyType)}::text[], ${column(({ call }) => call.location)}::text[],
      ${column(({ point }) => point?.latitude ?? null)}::float8[], ${column(({ point }) => point?.longitude ?? null)}::float8[],
      ${column(({ point }) => point?.source ?? null)}::text[], ${column(({ point }) => point?.precision ?? null)}::text[],
      ${column(({ point }) => point?.uncertaintyMeters ?? null)}::float8[], ${column(({ point }) => point?.matched ?? null)}::text[],
      ${column(({ point }) => civicColumn(point))}::text[],
      ${column(({ call }) => call.severity)}::text[], ${column(({ call }) => call.status)}::text[],
      ${column(({ payloadKey }) => payloadKey)}::text[], ${column(({ call }) => call.callerPhone)}::text[],
      ${column(({ call }) => call.failureReason)}::text[], ${column(({ geocoderFailed }) => geocoderFailed)}::boolean[],
      ${column(({ call }) => call.platform)}::text[], ${column(({ call }) => call.recordingUrl)}::text[],
      ${column(({ call }) => call.hasAnalysis)}::boolean[],
      ${column(({ call }) => (call.transcript.length > 0 ? JSON.stringify(call.transcript) : null))}::text[],
      ${column(({ call }) => transcriptText(call.transcript))}::text[], ${column(({ verified }) => verified)}::boolean[]
    ) WITH ORDINALITY AS t(id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
           transcript_length, emergency_type, location, latitude, longitude, location_source, location_precision,
           location_uncertainty_m, location_matched, location_civic, severity, status, payload_key, caller_phone, failure_reason, geocoder_failed, platform, recording_url, has_analysis,
           turns, transcript_text, verified, seq)
  )`;
  const grouping = placement !== undefined;
  const write = Prisma.sql`upserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
                         transcript_length, emergency_type, location, latitude, longitude, location_source,
                         location_precision, location_uncertainty_m, location_matched, location_civic, severity, status, simulation, table_name, payload_key, caller_phone, failure_reason,
                         platform, recording_url, awaiting_analysis, incident_id, grouped_at, grouping_pending, verified,
                         post_call_at)
      SELECT id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs, transcript_length,
        emergency_type, location, latitude, longitude, location_source, location_precision, location_uncertainty_m, location_matched,
        location_civic::jsonb, severity, status, false, 'calls', payload_key,
        caller_phone, failure_reason, platform, recording_url, NOT has_analysis,
        ${grouping ? Prisma.sql`(SELECT p.incident_id FROM placed p WHERE p.id = input.id)` : Prisma.sql`NULL`},
        CASE WHEN ${grouping} AND NOT geocoder_failed AND has_analysis THEN now() END,
        ${grouping} AND geocoder_failed AND has_analysis, verified, now()
      FROM input
      ON CONFLICT (conversation_id) DO UPDATE SET
        occurred_at = EXCLUDED.occurred_at, agent_id = EXCLUDED.agent_id,
        duration_secs = EXCLUDED.duration_secs, transcript_length = EXCLUDED.transcript_length,
        payload_key = EXCLUDED.payload_key,
        caller_phone = COALESCE(EXCLUDED.caller_phone, calls.caller_phone),
        recording_url = COALESCE(EXCLUDED.recording_url, calls.recording_url),
        failure_reason = COALESCE(calls.failure_reason, EXCLUDED.failure_reason),
        (summary, call_successful, emergency_type, original_emergency_type, severity, original_severity, location,
         original_location, latitude, longitude, location_source, location_precision, location_uncertainty_m, location_matched,
         location_civic, awaiting_analysis, grouping_pending) = (
          SELECT
            CASE WHEN i.has_analysis THEN EXCLUDED.summary ELSE calls.summary END,
            CASE WHEN i.has_analysis THEN EXCLUDED.call_successful ELSE calls.call_successful END,
            ${corrected("emergency_type")}, ${corrected("severity")}, ${corrected("location", saysWhere)},
            CASE WHEN i.geocoder_failed OR NOT ${saysWhere} OR calls.original_location IS NOT NULL THEN calls.latitude ELSE EXCLUDED.latitude END,
            CASE WHEN i.geocoder_failed OR NOT ${saysWhere} OR calls.original_location IS NOT NULL THEN calls.longitude ELSE EXCLUDED.longitude END,
            CASE WHEN i.geocoder_failed OR NOT ${saysWhere} OR calls.original_location IS NOT NULL THEN calls.location_source ELSE EXCLUDED.location_source END,
            CASE WHEN i.geocoder_failed OR NOT ${saysWhere} OR calls.original_location IS NOT NULL THEN calls.location_precision ELSE EXCLUDED.location_precision END,
            CASE WHEN i.geocoder_failed OR NOT ${saysWhere} OR calls.original_location IS NOT NULL THEN calls.location_uncertainty_m ELSE EXCLUDED.location_uncertainty_m END,
            CASE WHEN i.geocoder_failed OR NOT ${saysWhere} OR calls.original_location IS NOT NULL THEN calls.location_matched ELSE EXCLUDED.location_matched END,
            CASE WHEN i.geocoder_failed OR NOT ${saysWhere} OR calls.original_location IS NOT NULL THEN calls.location_civic ELSE EXCLUDED.location_civic END,
            calls.awaiting_analysis AND NOT i.has_analysis,
            -- The analysis arrived for a call stored without it: the grouper places it now.
            calls.grouping_pending OR (${grouping} AND calls.awaiting_analysis AND i.has_analysis)
          FROM input i WHERE i.conversation_id = EXCLUDED.conversation_id),
        verified = true, updated_at = CURRENT_TIMESTAMP,
        -- A live call (lib/calls/write/live.ts) is over: off the line, and live events no longer change it.
        on_line = false, post_call_at = COALESCE(calls.post_call_at, now())
      -- An unverified delivery never changes a stored call (docs/webhook.md, "Unsigned deliveries").
      WHERE EXCLUDED.verified
      RETURNING id, conversation_id, status, (xmax = 0) AS inserted
    ),
    history AS (
      INSERT INTO call_status_changes (call_id, from_status, status, changed_by)
      SELECT id, NULL, status, 'webhook' FROM upserted WHERE inserted
    )
    INSERT INTO call_transcripts (call_id, turns, text)
    SELECT u.id, i.turns::jsonb, i.transcript_text FROM upserted u JOIN input i ON i.conversation_id = u.conversation_id
    WHERE i.turns IS NOT NULL
    ON CONFLICT (call_id) DO UPDATE SET turns = EXCLUDED.turns, text = EXCLUDED.text`;
  if (!grouping) {
    await db.$executeRaw(prepared(Prisma.sql`WITH ${input}, ${write}`));
    return;
  }
  await db.$executeRaw(prepared(
    placement(
      Prisma.sql`
        SELECT t.id, t.id AS own, t.seq, t.emergency_type AS type, t.occurred_at AS at, t.latitude AS lat,
          t.longitude AS lon, t.location_precision AS precision, t.location, t.caller_phone AS phone, false AS simulation,
          NULL::text AS exercise_id
        FROM input t
        WHERE NOT t.geocoder_failed AND t.has_analysis
          AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.conversation_id = t.conversation_id)`,
      { before: input, then: Prisma.sql`, ${write}` },
    ),
  ));
}

/**
 * A call that never connected. It only creates a record: a failure reported for a conversation
 * already stored (a transcription arrived) adds its reason and number and changes nothing else,
 * and an unverified one (unsigned) not even that.
 */
export async function upsertFailedCall(db: Pick<Db, "$executeRaw">, call: HandedOverCall, payloadKey: string, verified: boolean): Promise<void> {
  await db.$executeRaw`
    WITH upserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
                         transcript_length, emergency_type, location, severity, status, simulation, table_name,
                         payload_key, caller_phone, failure_reason, verified)
      VALUES (${uuid7()}, ${call.conversationId}, ${call.occurredAt}, ${call.agentId}, ${call.summary}, false, 0, 0,
              ${call.emergencyType}, '', ${call.severity}, ${call.status}, false, 'calls', ${payloadKey},
              ${call.callerPhone}, ${call.failureReason}, ${verified})
      ON CONFLICT (conversation_id) DO UPDATE SET
        failure_reason = EXCLUDED.failure_reason,
        caller_phone = COALESCE(calls.caller_phone, EXCLUDED.caller_phone),
        updated_at = CURRENT_TIMESTAMP
      WHERE EXCLUDED.verified
      RETURNING id, status, (xmax = 0) AS inserted
    )
    INSERT INTO call_status_changes (call_id, from_status, status, changed_by)
    SELECT id, NULL, status, 'webhook' FROM upserted WHERE inserted`;
}
