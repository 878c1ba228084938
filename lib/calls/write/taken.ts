import { type Actor, actorRef } from "../../access/actor";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import { uuid7 } from "../../db/uuid7";
import { CALL_TAKER, EXERCISE_TABLE_NAME, type Severity } from "../../vocabulary";
import { civicColumn, type LocatedPoint, type Placement } from "./received";

/**
 * A call a person took (POST /api/calls, lib/call-taking; docs/calls.md, "A call a person takes"),
 * ready to store: what the call-taker wrote, where it is, and which incident it goes into.
 */
export interface TakenCall {
  /** Its conversation_id: the client's id when it made one (a retried save), else the server's. */
  conversationId: string;
  /** When the call began: the form's opening, else the save. */
  occurredAt: Date;
  callerPhone: string | null;
  callerName: string | null;
  emergencyType: string;
  severity: Severity;
  location: string;
  /** The chosen candidate, or the typed words geocoded; null when no geocoder knows them. */
  point: LocatedPoint | null;
  /** The geocoder could not answer: the call waits for the grouper, which places it by its words. */
  geocoderFailed: boolean;
  narrative: string;
  /** The open incident the person joined it to (locked by the caller), else placed by the grouping rule. */
  incidentId: string | null;
  /** A training call (simulated), of this exercise when it has one; a real call otherwise. */
  training: { exerciseId: string | null } | null;
}

/** What the statement did: the call's id and whether this save made it (false: a retried save, stored before). */
export interface TakenWrite {
  id: string;
  inserted: boolean;
}

/**
 * One taken call in one statement, written as its source `call_taker` with the person (or key) as
 * its agent and its creation's history row naming them; placed in the chosen incident, or by
 * `placement` (the grouping rule, as every received call; undefined while grouping is off: an
 * incident of its own). A conversation_id already stored writes nothing (a retried save): the
 * answer then names the stored call, not inserted.
 */
export async function insertTakenCall(db: Pick<Db, "$queryRaw">, call: TakenCall, actor: Actor, placement: Placement | undefined): Promise<TakenWrite> {
  const { point, training } = call;
  const durationSecs = Math.max(0, Math.round((Date.now() - call.occurredAt.getTime()) / 1000));
  const input = Prisma.sql`input AS (
    SELECT ${uuid7()}::text AS id, ${call.conversationId}::text AS conversation_id, ${call.occurredAt}::timestamptz AS at,
      ${actorRef(actor)}::text AS agent_id, ${call.narrative}::text AS summary, ${durationSecs}::int AS duration,
      ${call.emergencyType}::text AS type, ${call.location}::text AS location, ${call.severity}::text AS severity,
      ${point?.latitude ?? null}::float8 AS lat, ${point?.longitude ?? null}::float8 AS lon, ${point?.source ?? null}::text AS source,
      ${point?.precision ?? null}::text AS precision, ${point?.uncertaintyMeters ?? null}::float8 AS uncertainty,
      ${point?.matched ?? null}::text AS matched, ${civicColumn(point)}::jsonb AS civic, ${call.geocoderFailed}::boolean AS geocoder_failed,
      ${call.callerPhone}::text AS phone, ${call.callerName}::text AS caller_name, ${call.incidentId}::text AS chosen,
      ${training !== null}::boolean AS simulation, ${training?.exerciseId ?? null}::text AS exercise_id
  )`;
  const placing = placement !== undefined && call.incidentId === null;
  const write = Prisma.sql`inserted AS (
      INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs, transcript_length,
                         emergency_type, location, latitude, longitude, location_source, location_precision, location_uncertainty_m,
                         location_matched, location_civic, severity, status, simulation, table_name, caller_phone, caller_name, platform,
                         incident_id, grouped_at, grouping_pending, verified, exercise_id)
      SELECT id, conversation_id, at, agent_id, summary, true, duration, 0, type, location, lat, lon, source, precision, uncertainty,
        matched, civic, severity, 'active', simulation, CASE WHEN exercise_id IS NULL THEN 'calls' ELSE ${EXERCISE_TABLE_NAME} END,
        phone, caller_name, ${CALL_TAKER},
        COALESCE(chosen, ${placing ? Prisma.sql`(SELECT p.incident_id FROM placed p WHERE p.id = input.id)` : Prisma.sql`NULL`}),
        CASE WHEN chosen IS NOT NULL OR (${placing} AND NOT geocoder_failed) THEN now() END,
        ${placing} AND geocoder_failed, true, exercise_id
      FROM input
      ON CONFLICT (conversation_id) DO NOTHING
      RETURNING id, status
    ),
    history AS (
      INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by, changed_by_name)
      SELECT id, NULL, status, clock_timestamp(), ${actorRef(actor)}, ${actor.name} FROM inserted
    )
    SELECT id, true AS inserted FROM inserted
    UNION ALL
    SELECT c.id, false FROM calls c WHERE c.conversation_id = (SELECT conversation_id FROM input) AND NOT EXISTS (SELECT 1 FROM inserted)`;
  const statement = placing
    ? placement(
      Prisma.sql`
        SELECT t.id, t.id AS own, 1 AS seq, t.type, t.at, t.lat, t.lon, t.precision, t.location, t.phone,
          t.simulation, t.exercise_id
        FROM input t
        WHERE NOT t.geocoder_failed AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.conversation_id = t.conversation_id)`,
      { before: input, then: Prisma.sql`, ${write}` },
    )
    : Prisma.sql`WITH ${input}, ${write}`;
  const [written] = await db.$queryRaw<TakenWrite[]>(statement);
  return written;
}
