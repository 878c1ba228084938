import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { uuid7 } from "../../db/uuid7";
import { EXERCISE_TABLE_NAME, SEVERITY_FALLBACK, type Platform, type Severity, type SimulatedCall } from "../../vocabulary";
import type { TranscriptTurn } from "../handed-over";
import { withDatabase } from "../../db/with-database";
import { mergeTextIndexesSoon } from "../text-index-upkeep";
import { markOwnWrite, withFeedLock } from "../../feed";
import { civicColumn, type LocatedPoint, type Placement, SEARCHED_TRANSCRIPT_LIMIT, transcriptText } from "./received";

/**
 * What the voice agent reported while the caller is on the line (its `report_emergency` tool,
 * lib/on-the-line): each field it said this time; null when it did not (the stored value stays).
 */
export interface LiveReport {
  conversationId: string;
  platform: Platform;
  agentId: string;
  emergencyType: string | null;
  severity: Severity | null;
  /** The location as spoken. */
  location: string | null;
  /** Free-text details: the call's summary until the post-call event brings the analysis'. */
  details: string | null;
  callerPhone: string | null;
  /** Where `location` is (geocoded); null when unknown or not said. */
  point: LocatedPoint | null;
  /** The geocoder failed on `location`: the call waits for the grouper, a stored point stays. */
  geocoderFailed: boolean;
  /** The platform said the call ended (Vapi's status-update `ended`): off the line, and it stays off. */
  ended?: boolean;
  /** The conversation so far, when the platform sent it live (a live event, lib/voice-platforms/event.ts). */
  transcript?: LiveTranscript | null;
  /** When it happened: now unless given (an exercise's scheduler passes its clock's time). */
  at?: Date;
  /**
   * A training call (docs/exercises.md, "Live calls"): the exercise's generated call, stored as its
   * calls are (simulated, `exercise-calls`, with `exercise_id`) under the id the exercise gave it; a live
   * report of a real call never changes it, nor the reverse.
   */
  training?: { exerciseId: string; call: SimulatedCall; id: string };
}

/**
 * A live transcript: the whole conversation so far (Retell's transcript_updated, Vapi's live
 * artifact), which replaces a stored one no longer than it (a late, shorter snapshot changes
 * nothing), or one more final turn (Vapi's `transcript` without its artifact), added unless
 * already there. The post-call event's transcript replaces either (./received.ts).
 */
export interface LiveTranscript {
  turns: TranscriptTurn[];
  whole: boolean;
}

/** A live event that carries no report: every reported field null. */
export const NOTHING_REPORTED = {
  emergencyType: null,
  severity: null,
  location: null,
  details: null,
  point: null,
  geocoderFailed: false,
} as const satisfies Partial<LiveReport>;

/** What the statement did: the call's id, and whether it made the call; undefined when the call was not changed. */
export interface LiveWrite {
  id: string;
  inserted: boolean;
}

/**
 * A field the agent reported live, as `received.ts` treats a redelivered one: not said, both
 * stay; corrected by a dispatcher, the correction stays and the agent's value becomes its original.
 */
function reported(column: "emergency_type" | "severity" | "location", sent: string): Prisma.Sql {
  const [value, original, given] = [Prisma.raw(column), Prisma.raw(`original_${column}`), Prisma.raw(`i.${sent}`)];
  return Prisma.sql`CASE WHEN ${given} IS NULL OR calls.${original} IS NOT NULL THEN calls.${value} ELSE ${given} END,
    CASE WHEN ${given} IS NULL OR calls.${original} IS NULL THEN calls.${original} ELSE ${given} END`;
}

/** A point column: the new point only when a location was said, geocoded and not corrected. */
const pointColumn = (column: string, sent: string) =>
  Prisma.sql`CASE WHEN i.location IS NULL OR i.geocoder_failed OR calls.original_location IS NOT NULL
    THEN calls.${Prisma.raw(column)} ELSE i.${Prisma.raw(sent)} END`;

/**
 * One live report in one statement (docs/webhook.md, "Live calls"). The first makes the call, on
 * the line, and places it in its incident by `placement` at once when it has a location (else it
 * waits, `awaiting_analysis`, in an incident of its own, and the report that brings the location
 * hands it to the grouper). Later reports change only what they say, keep a dispatcher's
 * corrections (the agent's value becomes the original) and never move the call between incidents.
 * Once the post-call event came (`post_call_at`, received.ts), or for a call that was never live,
 * a report changes nothing: whatever the order of the events, the call ends with the analysis.
 */
export async function upsertLiveCall(db: Pick<Db, "$queryRaw">, report: LiveReport, placement: Placement | undefined): Promise<LiveWrite | undefined> {
  const { point, training } = report;
  const input = Prisma.sql`input AS (
    SELECT ${training?.id ?? uuid7()}::text AS id, ${report.conversationId}::text AS conversation_id, ${report.platform}::text AS platform,
      ${report.agentId}::text AS agent_id, ${report.emergencyType}::text AS type, ${report.severity}::text AS severity,
      ${report.location}::text AS location, ${report.details}::text AS details, ${report.callerPhone}::text AS phone,
      ${point?.latitude ?? null}::float8 AS lat, ${point?.longitude ?? null}::float8 AS lon, ${point?.source ?? null}::text AS source,
      ${point?.precision ?? null}::text AS precision, ${point?.uncertaintyMeters ?? null}::float8 AS uncertainty,
      ${point?.matched ?? null}::text AS matched, ${civicColumn(point)}::jsonb AS civic, ${report.geocoderFailed}::boolean AS geocoder_failed, ${report.ended ?? false}::boolean AS ended,
      COALESCE(${report.at ?? null}::timestamptz, now()) AS at, ${training?.exerciseId ?? null}::text AS exercise_id,
      ${training ? JSON.stringify(training.call) : null}::jsonb AS record
  )`;
  const grouping = placement !== undefined;
  const write = Prisma.sql`upserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs, transcript_length,
                         emergency_type, location, latitude, longitude, location_source, location_precision, location_uncertainty_m,
                         location_matched, location_civic, severity, status, simulation, table_name, caller_phone, platform, awaiting_analysis, incident_id,
                         grouped_at, grouping_pending, verified, on_line, live_at, live_seen_at, live_ended_at, live_located_at,
                         exercise_id, call_id, scenario, scenario_name, area, description, simulated_record)
      SELECT id, conversation_id, at, agent_id, COALESCE(details, ''), false, 0, 0, COALESCE(type, 'unknown'), COALESCE(location, ''),
        lat, lon, source, precision, uncertainty, matched, civic, COALESCE(severity, ${SEVERITY_FALLBACK}), 'active', exercise_id IS NOT NULL,
        CASE WHEN exercise_id IS NULL THEN 'calls' ELSE ${EXERCISE_TABLE_NAME} END, phone, platform,
        location IS NULL,
        ${grouping ? Prisma.sql`(SELECT p.incident_id FROM placed p WHERE p.id = input.id)` : Prisma.sql`NULL`},
        CASE WHEN ${grouping} AND location IS NOT NULL AND NOT geocoder_failed THEN at END,
        ${grouping} AND location IS NOT NULL AND geocoder_failed, true, NOT ended, at, at,
        CASE WHEN ended THEN at END, CASE WHEN location IS NOT NULL THEN at END,
        exercise_id, record->>'call_id', record->>'scenario', record->>'scenario_name', record->'location'->>'area',
        record->>'description', record
      FROM input
      ON CONFLICT (conversation_id) DO UPDATE SET
        (emergency_type, original_emergency_type, severity, original_severity, location, original_location,
         latitude, longitude, location_source, location_precision, location_uncertainty_m, location_matched, location_civic, summary, caller_phone,
         awaiting_analysis, grouping_pending) = (
          SELECT ${reported("emergency_type", "type")}, ${reported("severity", "severity")}, ${reported("location", "location")},
            ${pointColumn("latitude", "lat")}, ${pointColumn("longitude", "lon")}, ${pointColumn("location_source", "source")},
            ${pointColumn("location_precision", "precision")}, ${pointColumn("location_uncertainty_m", "uncertainty")},
            ${pointColumn("location_matched", "matched")}, ${pointColumn("location_civic", "civic")}, COALESCE(i.details, calls.summary), COALESCE(calls.caller_phone, i.phone),
            calls.awaiting_analysis AND i.location IS NULL,
            -- The location arrived for a call not yet placed: the grouper places it now.
            calls.grouping_pending OR (${grouping} AND calls.awaiting_analysis AND i.location IS NOT NULL)
          FROM input i),
        -- Ended once, off the line for good; else any live event shows it on the line.
        on_line = calls.live_ended_at IS NULL AND NOT (SELECT ended FROM input),
        live_ended_at = COALESCE(calls.live_ended_at, CASE WHEN (SELECT ended FROM input) THEN (SELECT at FROM input) END),
        live_located_at = COALESCE(calls.live_located_at, CASE WHEN (SELECT location FROM input) IS NOT NULL THEN (SELECT at FROM input) END),
        live_seen_at = (SELECT at FROM input), updated_at = CURRENT_TIMESTAMP
      WHERE calls.live_at IS NOT NULL AND calls.post_call_at IS NULL
        -- Training and reality never write each other's calls.
        AND calls.exercise_id IS NOT DISTINCT FROM (SELECT exercise_id FROM input)
      RETURNING id, status, occurred_at, (xmax = 0) AS inserted
    ),
    history AS (
      INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
      SELECT id, NULL, status, occurred_at, ${training ? "simulator" : "webhook"} FROM upserted WHERE inserted
    )${transcriptWrite(report.transcript ?? null)}
    SELECT id, inserted FROM upserted`;
  const statement = grouping
    ? placement(
      Prisma.sql`
        SELECT t.id, t.id AS own, 1 AS seq, t.type, t.at, t.lat, t.lon, t.precision, t.location, t.phone,
          t.exercise_id IS NOT NULL AS simulation, t.exercise_id
        FROM input t
        WHERE t.location IS NOT NULL AND NOT t.geocoder_failed
          AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.conversation_id = t.conversation_id)`,
      { before: input, then: Prisma.sql`, ${write}` },
    )
    : Prisma.sql`WITH ${input}, ${write}`;
  const [written] = await db.$queryRaw<LiveWrite[]>(statement);
  return written;
}

/**
 * The live transcript's write, beside the call's (only while the call is live: `upserted` is empty
 * once the post-call event came, whose transcript then stands).
 */
function transcriptWrite(transcript: LiveTranscript | null): Prisma.Sql {
  if (transcript === null || transcript.turns.length === 0) return Prisma.empty;
  const keep = transcript.whole
    ? Prisma.sql`turns = EXCLUDED.turns, text = EXCLUDED.text
        WHERE jsonb_array_length(EXCLUDED.turns) >= jsonb_array_length(call_transcripts.turns)`
    : Prisma.sql`turns = call_transcripts.turns || EXCLUDED.turns,
        text = left(call_transcripts.text || E'\n' || EXCLUDED.text, ${SEARCHED_TRANSCRIPT_LIMIT}::int)
        WHERE NOT call_transcripts.turns @> EXCLUDED.turns`;
  return Prisma.sql`,
    live_transcript AS (
      INSERT INTO call_transcripts (call_id, turns, text)
      SELECT id, ${JSON.stringify(transcript.turns)}::jsonb, ${transcriptText(transcript.turns)}::text FROM upserted
      ON CONFLICT (call_id) DO UPDATE SET ${keep}
    )`;
}

/** A live report through the door: the statement, then what follows a commit that wrote calls. */
export async function storeLiveCall(report: LiveReport, placement: Placement | undefined): Promise<LiveWrite | undefined> {
  const written = await withDatabase((db) => upsertLiveCall(db, report, placement));
  if (written) afterLiveWrite();
  return written;
}

/**
 * Live calls with no live event for `idleSeconds` and no post-call event are marked ended (off
 * the line); they stay listed, and a late post-call event still completes them. Answers how many.
 */
export async function endIdleLiveCalls(idleSeconds: number): Promise<number> {
  const ended = await withFeedLock((tx) => tx.$executeRaw`
    UPDATE calls SET on_line = false, updated_at = CURRENT_TIMESTAMP
    WHERE on_line AND live_seen_at < now() - make_interval(secs => ${idleSeconds})`);
  if (ended > 0) afterLiveWrite();
  return ended;
}

function afterLiveWrite(): void {
  mergeTextIndexesSoon();
  markOwnWrite();
}
