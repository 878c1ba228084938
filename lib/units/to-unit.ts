import { getConfig } from "../config";
import type { Unit } from "./schema";
import type { UnitState, UnitType } from "./states";

/** A units row as UNIT_COLUMNS selects it. */
export interface UnitRow {
  id: string;
  call_sign: string;
  name: string;
  type: string;
  station: string | null;
  station_latitude: number | null;
  station_longitude: number | null;
  state: string;
  state_changed_at: Date;
  incident_id: string | null;
  latitude: number | null;
  longitude: number | null;
  position_at: Date | null;
  exercise_id: string | null;
  /** The incident it serves: its type and address (one probe of the incident's key). */
  incident: { emergency_type: string; location: string } | null;
  /** Its latest state move's id (one probe of (unit_id, id DESC)). */
  state_change_id: string | null;
}

export const UNIT_COLUMNS =
  "u.id, u.call_sign, u.name, u.type, u.station, u.station_latitude, u.station_longitude, u.state, u.state_changed_at, u.incident_id, u.latitude, u.longitude, u.position_at, u.exercise_id, " +
  "(SELECT json_build_object('emergency_type', i.emergency_type, 'location', COALESCE(i.location_matched, i.location)) FROM incidents i WHERE i.id = u.incident_id) AS incident, " +
  "(SELECT c.id::text FROM unit_state_changes c WHERE c.unit_id = u.id ORDER BY c.id DESC LIMIT 1) AS state_change_id";

/** Whether a position reported at `at` is older than UNIT_POSITION_STALE_SECONDS. */
export const isStale = (at: Date, now = Date.now()): boolean => now - at.getTime() > getConfig().UNIT_POSITION_STALE_SECONDS * 1000;

export function toUnit(row: UnitRow): Unit {
  return {
    id: row.id,
    call_sign: row.call_sign,
    name: row.name,
    type: row.type as UnitType,
    station: row.station === null ? null : { name: row.station, latitude: row.station_latitude, longitude: row.station_longitude },
    in_service: row.state !== "out_of_service",
    state: row.state as UnitState,
    state_changed_at: row.state_changed_at.toISOString(),
    incident_id: row.incident_id,
    position:
      row.latitude === null || row.longitude === null || row.position_at === null
        ? null
        : { latitude: row.latitude, longitude: row.longitude, at: row.position_at.toISOString(), stale: isStale(row.position_at) },
    exercise_id: row.exercise_id,
    incident: row.incident,
    state_change_id: row.state_change_id,
  };
}
