import { type Actor, actorRef } from "../../access/actor";
import type { Db } from "../../db/client";
import { Prisma } from "../../db/generated/client";
import type { CorrectedField } from "../schema";
import { civicColumn, type LocatedPoint } from "./received";

type Tx = Pick<Db, "$queryRaw">;

/** What a dispatcher corrects: any of the type, the severity and the spoken location with the point it was geocoded to. */
export interface CallCorrection {
  emergencyType?: string;
  severity?: string;
  location?: { text: string } & LocatedPoint;
}

/** One field of one call that changed. */
export interface CorrectedValue {
  callId: string;
  field: CorrectedField;
  from: string;
  to: string;
}

/**
 * `original_<field>` after a correction to `to`: the agent's value is kept at the first correction
 * of the field, and cleared when a correction brings the field back to it.
 */
function original(column: CorrectedField, to: string | null): Prisma.Sql {
  const [value, kept] = [Prisma.raw(`c.${column}`), Prisma.raw(`c.original_${column}`)];
  return Prisma.sql`CASE WHEN ${to}::text IS NULL OR ${to}::text = ${value} THEN ${kept}
    WHEN ${to}::text = ${kept} THEN NULL ELSE coalesce(${kept}, ${value}) END`;
}

/**
 * Corrects the calls `where` selects, in one statement: each field that changes is set, the
 * agent's value kept beside it (original_<field>), and one call_corrections row per field changed
 * names the actor and the time it was made (under the locks). A new location moves the call's point (and so its incident's centre, by the
 * incident triggers). A value equal to the current one changes nothing. Answers what changed.
 */
export async function correctCalls(tx: Tx, where: Prisma.Sql, correction: CallCorrection, actor: Actor): Promise<CorrectedValue[]> {
  const type = correction.emergencyType ?? null;
  const severity = correction.severity ?? null;
  const location = correction.location ?? null;
  const text = location?.text ?? null;
  const moved = Prisma.sql`${text}::text IS NOT NULL AND ${text}::text <> c.location`;
  const changed = await tx.$queryRaw<{ call_id: string; field: CorrectedField; from_value: string; to_value: string }[]>`
    WITH old AS (
      SELECT id, emergency_type, severity, location FROM calls WHERE ${where} FOR UPDATE
    ), changes AS (
      SELECT old.id AS call_id, f.field, f.from_value, f.to_value
      FROM old CROSS JOIN LATERAL (VALUES
        ('emergency_type', old.emergency_type, ${type}::text),
        ('severity', old.severity, ${severity}::text),
        ('location', old.location, ${text}::text)) AS f(field, from_value, to_value)
      WHERE f.to_value IS NOT NULL AND f.to_value <> f.from_value
    ), corrected AS (
      UPDATE calls c SET
        original_emergency_type = ${original("emergency_type", type)},
        original_severity = ${original("severity", severity)},
        original_location = ${original("location", text)},
        emergency_type = coalesce(${type}::text, c.emergency_type),
        severity = coalesce(${severity}::text, c.severity),
        latitude = CASE WHEN ${moved} THEN ${location?.latitude ?? null}::float8 ELSE c.latitude END,
        longitude = CASE WHEN ${moved} THEN ${location?.longitude ?? null}::float8 ELSE c.longitude END,
        location_source = CASE WHEN ${moved} THEN ${location?.source ?? null}::text ELSE c.location_source END,
        location_precision = CASE WHEN ${moved} THEN ${location?.precision ?? null}::text ELSE c.location_precision END,
        location_uncertainty_m = CASE WHEN ${moved} THEN ${location?.uncertaintyMeters ?? null}::float8 ELSE c.location_uncertainty_m END,
        location_matched = CASE WHEN ${moved} THEN ${location?.matched ?? null}::text ELSE c.location_matched END,
        location_civic = CASE WHEN ${moved} THEN ${civicColumn(location)}::jsonb ELSE c.location_civic END,
        location = coalesce(${text}::text, c.location),
        updated_at = CURRENT_TIMESTAMP
      WHERE c.id IN (SELECT call_id FROM changes)
      RETURNING c.id
    ), recorded AS (
      INSERT INTO call_corrections (call_id, field, from_value, to_value, changed_at, changed_by, changed_by_name)
      SELECT call_id, field, from_value, to_value, clock_timestamp(), ${actorRef(actor)}, ${actor.name} FROM changes
    )
    SELECT call_id, field, from_value, to_value FROM changes ORDER BY call_id, field`;
  return changed.map((row) => ({ callId: row.call_id, field: row.field, from: row.from_value, to: row.to_value }));
}
