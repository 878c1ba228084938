import type { Db } from "../../db/client";
import type { CallPlacement } from "../../geocoding/types";
import type { SimulatedCall } from "../../vocabulary";

/** A simulated call to store. */
export interface SimulatedRow {
  /** The new row's id (uuid7). */
  id: string;
  call: SimulatedCall;
  /** How exact its point is and who placed it (the generator's answer, kept with an exercise's plan). */
  placement: CallPlacement;
  /** The call's first status: "active", or "failed" for a call abandoned before an answer. */
  status: "active" | "failed";
  /** The event the call reports (ground truth for grouping), stored as simulated_event. */
  event?: string | null;
  /** When the conversation began (occurred_at), when before its arrival (created_at): a post-call event's call. */
  startedAt?: string;
}

/**
 * One multi-row INSERT of simulated calls and their creation in the status history, mapped as
 * docs/interface.md "Stored records, as listed" says: 20 array parameters through `unnest`, not
 * 26 placeholders per row. Calls whose call_id or conversation_id is taken are skipped (`ON
 * CONFLICT DO NOTHING`). Answers the stored calls' ids by call_id.
 * Each call is stored in an incident of its own, waiting for the grouper (lib/incidents/grouper.ts)
 * when `waitForGrouper` (grouping is on: lib/incidents/grouping.ts groupingEnabled) unless the call
 * failed (a caller who hung up before an answer reports nothing to group); the caller wakes the
 * grouper once the rows are committed.
 */
export async function insertSimulatedRows(
  db: Pick<Db, "$queryRaw">,
  tableName: string,
  rows: readonly SimulatedRow[],
  exerciseId: string | null,
  waitForGrouper: boolean,
): Promise<Map<string, string>> {
  const column = <T>(value: (row: SimulatedRow) => T) => rows.map(value);
  const inserted = await db.$queryRaw<{ id: string; call_id: string }[]>`
    WITH inserted AS (
      INSERT INTO calls (
        id, conversation_id, call_id, occurred_at, created_at, updated_at, agent_id, summary,
        call_successful, duration_secs, transcript_length, emergency_type, location, latitude,
        longitude, location_source, location_precision, location_uncertainty_m, severity, status, simulation, scenario, scenario_name,
        table_name, area, caller_phone, description, simulated_record, exercise_id, simulated_event, grouping_pending
      )
      SELECT r.id, r.call_id, r.call_id, r.started_at, r.created_at, r.created_at, 'simulator', r.summary,
        true, r.duration_secs, 0, r.emergency_type, r.address, r.latitude,
        r.longitude, r.location_source, r.location_precision, r.location_uncertainty_m, r.severity, r.status, true, r.scenario, r.scenario_name,
        ${tableName}, r.area, r.caller_phone, r.description, r.record::jsonb, ${exerciseId},
        r.event, ${waitForGrouper} AND r.status <> 'failed'
      FROM unnest(
        ${column(({ id }) => id)}::text[],
        ${column(({ call }) => call.call_id)}::text[],
        ${column(({ call }) => call.created_at)}::timestamptz[],
        ${column(({ call, startedAt }) => startedAt ?? call.created_at)}::timestamptz[],
        ${column(({ call }) => call.summary)}::text[],
        ${column(({ call }) => call.duration_secs)}::int[],
        ${column(({ call }) => call.emergency_type)}::text[],
        ${column(({ call }) => call.location.address)}::text[],
        ${column(({ call }) => Number(call.location.latitude))}::float8[],
        ${column(({ call }) => Number(call.location.longitude))}::float8[],
        ${column(({ call }) => call.severity)}::text[],
        ${column(({ status }) => status)}::text[],
        ${column(({ call }) => call.scenario)}::text[],
        ${column(({ call }) => call.scenario_name)}::text[],
        ${column(({ call }) => call.location.area)}::text[],
        ${column(({ call }) => call.caller_phone)}::text[],
        ${column(({ call }) => call.description)}::text[],
        ${column(({ call }) => JSON.stringify(call))}::text[],
        ${column(({ event }) => event ?? null)}::text[],
        ${column(({ placement }) => placement.source)}::text[],
        ${column(({ placement }) => placement.precision)}::text[],
        ${column(({ placement }) => placement.uncertaintyMeters)}::float8[]
      ) AS r(id, call_id, created_at, started_at, summary, duration_secs, emergency_type, address, latitude,
        longitude, severity, status, scenario, scenario_name, area, caller_phone, description, record,
        event, location_source, location_precision, location_uncertainty_m)
      ON CONFLICT DO NOTHING
      RETURNING id, call_id, status, created_at
    ), history AS (
      INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by)
      SELECT id, NULL, status, created_at, 'simulator' FROM inserted
    )
    SELECT id, call_id FROM inserted`;
  return new Map(inserted.map((row) => [row.call_id, row.id]));
}
