import { trainingOnlySql } from "../access/status-rule";
import { getConfig } from "../config";
import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import type { Recommendation } from "./schema";
import { DEFAULT_SPEEDS_KMH, UNIT_STATE_RULES, UNIT_STATES, type UnitType } from "./states";
import { isStale, toUnit, UNIT_COLUMNS, type UnitRow } from "./to-unit";
import { trainingMixReason } from "./training";

/**
 * GET /api/incidents/{id}/units: the units that may be sent without confirmation, nearest first
 * (docs/units.md, "Recommendation"). A unit is where its last position says, when that is fresh;
 * else at its home station; a stale position is never used silently: the reason says it was
 * passed over. Distance is the straight line (haversine), travel time that distance at the type's
 * speed: an approximation until routing exists. One read of the available units: a centre's
 * roster is at most a few thousand rows.
 */

const EARTH_RADIUS_KM = 6371.0088;

export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The speed of each type: the defaults, then UNIT_SPEEDS_KMH's pairs. */
export function speedsKmh(setting = getConfig().UNIT_SPEEDS_KMH): Record<string, number> {
  const speeds: Record<string, number> = { ...DEFAULT_SPEEDS_KMH };
  for (const pair of setting?.split(",") ?? []) {
    const [type, speed] = pair.split("=").map((part) => part.trim());
    if (Number(speed) > 0) speeds[type] = Number(speed);
  }
  return speeds;
}

const ASSIGNABLE = UNIT_STATES.filter((state) => UNIT_STATE_RULES[state].assignable);

export function recommendUnits(incidentId: string): Promise<Recommendation> {
  return withDatabase(async (db) => {
    const [incident] = await db.$queryRaw<{ latitude: number | null; longitude: number | null; exercise_id: string | null; training: boolean }[]>(Prisma.sql`
      SELECT latitude, longitude, exercise_id, ${trainingOnlySql(incidentId)} AS training FROM incidents WHERE id = ${incidentId}`);
    if (!incident) throw notFound(`No incident with id ${incidentId}`);
    // Only the units the incident may take: real ones for a real incident, its exercise's simulated ones for a training one.
    const available = await db.$queryRaw<UnitRow[]>(Prisma.sql`
      SELECT ${Prisma.raw(UNIT_COLUMNS)} FROM units u WHERE u.state = ANY(${ASSIGNABLE}::text[])`);
    const rows = available.filter((row) => trainingMixReason(row, incident) === null);
    const target = incident.latitude === null || incident.longitude === null ? null : { latitude: incident.latitude, longitude: incident.longitude };
    const speeds = speedsKmh();
    const now = Date.now();
    const ranked = rows.map((row) => {
      const unit = toUnit(row);
      const fresh = row.position_at !== null && row.latitude !== null && row.longitude !== null && !isStale(row.position_at, now);
      const staleNote = row.position_at !== null && !fresh ? `position of ${row.position_at.toISOString()} is stale, ` : "";
      const station = row.station_latitude !== null && row.station_longitude !== null ? { latitude: row.station_latitude, longitude: row.station_longitude } : null;
      const point = fresh ? { latitude: row.latitude!, longitude: row.longitude! } : station;
      const from = fresh ? "position" as const : station ? "station" as const : "none" as const;
      if (!target || !point) {
        const why = !target ? "the incident has no location" : `${staleNote}no position and no station point`;
        return { unit, distance_km: null, travel_minutes: null, from, reason: why };
      }
      const distance = distanceKm(point, target);
      const speed = speeds[row.type as UnitType] ?? DEFAULT_SPEEDS_KMH.other;
      const travel = (distance / speed) * 60;
      const where = fresh ? "from its last position" : `${staleNote}from ${row.station} (home station)`;
      const state = row.state === "available_on_scene" ? ", available on scene elsewhere" : "";
      return {
        unit,
        distance_km: Math.round(distance * 100) / 100,
        travel_minutes: Math.round(travel * 10) / 10,
        from,
        reason: `${distance.toFixed(1)} km ${where}, about ${Math.max(1, Math.round(travel))} min at ${speed} km/h${state}`,
      };
    });
    ranked.sort((a, b) => (a.distance_km ?? Infinity) - (b.distance_km ?? Infinity) || a.unit.call_sign.localeCompare(b.unit.call_sign));
    return { incident_id: incidentId, incident_located: target !== null, units: ranked };
  });
}
