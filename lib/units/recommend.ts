import { trainingOnlySql } from "../access/status-rule";
import { getConfig } from "../config";
import { withDatabase } from "../db/with-database";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { getRoadNetwork } from "../geocoding/centre/loaded";
import type { RoadNetwork, RoadTravel } from "../geocoding/centre/road-network";
import type { ResponsePlan } from "./plan-schema";
import { planFor } from "./plans";
import type { Recommendation } from "./schema";
import { DEFAULT_SPEEDS_KMH, UNIT_STATE_RULES, unavailableReason, type UnitState, type UnitType } from "./states";
import { isStale, toUnit, UNIT_COLUMNS, type UnitRow } from "./to-unit";
import { trainingMixReason } from "./training";

/**
 * GET /api/incidents/{id}/units (docs/units.md, "Recommendation"): the incident's response plan
 * filled, slot by slot, with the free unit of the slot's type that has the shortest travel time,
 * a slot no free unit fills saying why; then the other free units by travel time. A unit is where
 * its last position says, when that is fresh; else at its home station; a stale position is never
 * used silently: the reason says it was passed over. Travel time is on the centre's roads where
 * its centrelines are imported (one search from the incident for every unit), else the straight
 * line (haversine) at the type's speed. One read of the roster: a centre's is at most a few
 * thousand rows.
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

/** A unit as its type is named in words ("no ladder free"). */
const TYPE_WORDS: Record<UnitType, string> = {
  engine: "engine", ladder: "ladder", rescue: "rescue", ambulance: "ambulance", patrol: "patrol unit", hazmat: "hazmat unit", command: "command unit", other: "unit of type other",
};
/** Busy units a slot's reason names at most. */
const BUSY_NAMED = 3;

type Entry = Recommendation["units"][number];
type RosterRow = UnitRow & { serving_at: string | null };
interface Point {
  latitude: number;
  longitude: number;
}

export function recommendUnits(incidentId: string, limit?: number): Promise<Recommendation> {
  return withDatabase(async (db) => {
    const [incident] = await db.$queryRaw<{ latitude: number | null; longitude: number | null; exercise_id: string | null; training: boolean; emergency_type: string; severity: string }[]>(Prisma.sql`
      SELECT latitude, longitude, exercise_id, emergency_type, severity, ${trainingOnlySql(incidentId)} AS training FROM incidents WHERE id = ${incidentId}`);
    if (!incident) throw notFound(`No incident with id ${incidentId}`);
    const target = incident.latitude === null || incident.longitude === null ? null : { latitude: incident.latitude, longitude: incident.longitude };
    // Every unit (the busy ones say why a slot stays empty) with where the incident it serves is, the plan and the roads, read side by side.
    const [roster, plan, roads] = await Promise.all([
      db.$queryRaw<RosterRow[]>(Prisma.sql`
        SELECT ${Prisma.raw(UNIT_COLUMNS)}, COALESCE(i.location_matched, i.location) AS serving_at
        FROM units u LEFT JOIN incidents i ON i.id = u.incident_id`),
      planFor(db, incident.emergency_type, incident.severity),
      target ? getRoadNetwork() : undefined,
    ]);
    // Only the units the incident may take: real ones for a real incident, its exercise's simulated ones for a training one.
    const eligible = roster.filter((row) => trainingMixReason(row, incident) === null);
    const free = eligible.filter((row) => UNIT_STATE_RULES[row.state as UnitState].assignable);
    const ranked = rank(free, target, roads);
    const { fill, units } = fillPlan(plan, ranked, eligible);
    return { incident_id: incidentId, incident_located: target !== null, plan: fill, units: limit === undefined ? units : units.slice(0, limit) };
  });
}

/** Each free unit with its point and travel, fastest first; those without a travel time last, by call sign. */
function rank(rows: RosterRow[], target: Point | null, roads: RoadNetwork | undefined): Entry[] {
  const speeds = speedsKmh();
  const now = Date.now();
  const located = rows.map((row) => {
    const fresh = row.position_at !== null && row.latitude !== null && row.longitude !== null && !isStale(row.position_at, now);
    const station = row.station_latitude !== null && row.station_longitude !== null ? { latitude: row.station_latitude, longitude: row.station_longitude } : null;
    return { row, fresh, point: fresh ? { latitude: row.latitude!, longitude: row.longitude! } : station };
  });
  const routes: (RoadTravel | null)[] = roads && target
    ? roads.travelTimes(lonLat(target), located.map(({ point }) => (point ? lonLat(point) : null)))
    : located.map(() => null);
  const ranked = located.map(({ row, fresh, point }, i): Entry => {
    const unit = toUnit(row);
    const staleNote = row.position_at !== null && !fresh ? `position of ${row.position_at.toISOString()} is stale, ` : "";
    const from = fresh ? "position" as const : point ? "station" as const : "none" as const;
    const base = { unit, from, slot: null, road_km: null };
    if (!target || !point) {
      const why = !target ? "the incident has no location" : `${staleNote}no position and no station point`;
      return { ...base, distance_km: null, travel_minutes: null, travel: null, reason: why };
    }
    const distance = distanceKm(point, target);
    const where = fresh ? "from its last position" : `${staleNote}from ${row.station} (home station)`;
    const state = row.state === "available_on_scene" ? ", available on scene elsewhere" : "";
    const route = routes[i];
    if (route) {
      const minutes = route.seconds / 60;
      return {
        ...base,
        distance_km: round(distance, 100),
        travel_minutes: round(minutes, 10),
        travel: "route",
        road_km: round(route.metres / 1000, 100),
        reason: `${(route.metres / 1000).toFixed(1)} km by road ${where}, about ${Math.max(1, Math.round(minutes))} min${state}`,
      };
    }
    const speed = speeds[row.type as UnitType] ?? DEFAULT_SPEEDS_KMH.other;
    const minutes = (distance / speed) * 60;
    const offRoads = roads ? " (straight line: no road to it within reach)" : "";
    return {
      ...base,
      distance_km: round(distance, 100),
      travel_minutes: round(minutes, 10),
      travel: "straight_line",
      reason: `${distance.toFixed(1)} km ${where}, about ${Math.max(1, Math.round(minutes))} min at ${speed} km/h${state}${offRoads}`,
    };
  });
  return ranked.sort((a, b) => (a.travel_minutes ?? Infinity) - (b.travel_minutes ?? Infinity) || a.unit.call_sign.localeCompare(b.unit.call_sign));
}

const round = (value: number, per: number) => Math.round(value * per) / per;
const lonLat = (point: Point) => ({ lon: point.longitude, lat: point.latitude });

/**
 * The plan's slots, each given the fastest free unit of its type not given an earlier slot; the
 * units listed with the plan's first, in slot order, then the rest as ranked.
 */
function fillPlan(plan: ResponsePlan | null, ranked: Entry[], eligible: RosterRow[]): { fill: Recommendation["plan"]; units: Entry[] } {
  if (!plan) return { fill: null, units: ranked };
  const taken = new Set<Entry>();
  const slots = plan.slots.flatMap(({ type, count }) => Array.from({ length: count }, () => type)).map((type, slot) => {
    const entry = ranked.find((candidate) => candidate.unit.type === type && !taken.has(candidate));
    if (!entry) return { type, unit_id: null, call_sign: null, travel_minutes: null, unfilled_reason: unfilledReason(type, eligible, [...taken].some((other) => other.unit.type === type)) };
    taken.add(entry);
    entry.slot = slot;
    return { type, unit_id: entry.unit.id, call_sign: entry.unit.call_sign, travel_minutes: entry.travel_minutes, unfilled_reason: null };
  });
  const inPlan = ranked.filter((entry) => taken.has(entry)).sort((a, b) => a.slot! - b.slot!);
  const fill = { emergency_type: plan.emergency_type, severity: plan.severity, source: plan.source, complete: slots.every((slot) => slot.unit_id !== null), slots };
  return { fill, units: [...inPlan, ...ranked.filter((entry) => !taken.has(entry))] };
}

/** "no ladder free: L5 on scene at 224 N 8th St", "no engine on the roster". */
function unfilledReason(type: UnitType, eligible: RosterRow[], othersInPlan: boolean): string {
  const word = TYPE_WORDS[type];
  const busy = eligible.filter((row) => row.type === type && !UNIT_STATE_RULES[row.state as UnitState].assignable);
  const none = `no ${othersInPlan ? "other " : ""}${word} free`;
  if (busy.length === 0) return othersInPlan ? none : `no ${word} on the roster`;
  const named = busy
    .sort((a, b) => a.call_sign.localeCompare(b.call_sign))
    .slice(0, BUSY_NAMED)
    .map((row) => `${row.call_sign} ${unavailableReason(row.state as UnitState, null)}${row.serving_at ? ` at ${row.serving_at}` : ""}`);
  return `${none}: ${named.join(", ")}${busy.length > BUSY_NAMED ? ` and ${busy.length - BUSY_NAMED} more` : ""}`;
}
