import { createHash } from "node:crypto";
import type { Actor } from "../access/actor";
import { type CallWrites, writeCalls } from "../calls/write/write-calls";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withDatabase } from "../db/with-database";
import { distanceKm, speedsKmh } from "./recommend";
import { applyUnitState } from "./state";
import { DEFAULT_SPEEDS_KMH, isEmsUnitType, type UnitState } from "./states";
import { UNIT_COLUMNS, type UnitRow } from "./to-unit";
import { lockUnits } from "./write";

/**
 * The crews of exercises' simulated units (docs/exercises.md, "Simulated units"): once a
 * dispatcher sends one, it reports each next state by itself when that falls due, as a crew
 * radios it: en route after its turnout, on scene after the drive from where it was (its type's
 * speed, on roads a third longer than the straight line), then an ambulance transporting and at
 * hospital, and available again, back at its station. Times are exercise time: the exercise's
 * speed shortens them, and the crews of a paused or ended exercise wait. Each move goes through
 * the units' own door (applyUnitState): history, audit, the incident following, the change feed.
 */

/** Who the crews' reports are attributed to in the unit history and the audit trail. */
export const EXERCISE_CREW: Actor = { kind: "key", id: "exercise-crew", name: "Exercise crew (simulated)", permissions: new Set() };

/** Seconds of exercise time in a state before the crew reports the next: the shortest and the longest. */
const STAY_SECONDS = {
  on_scene: [900, 1500],
  transporting: [600, 900],
  at_hospital: [600, 900],
  available_on_scene: [300, 600],
} as const satisfies Partial<Record<UnitState, readonly [number, number]>>;
/** Turnout (dispatched to en route): mostly within NFPA 1710's 60 s (EMS) and 80 s (fire), sometimes not, as crews are. */
const TURNOUT_SECONDS = { ems: [40, 75], fire: [55, 95] } as const;
/** Roads are longer than the straight line. */
const ROAD_FACTOR = 1.3;
/** A drive to an incident without a point. */
const UNKNOWN_DRIVE_SECONDS = 300;


/** The state a crew reports after `state`. */
function nextState(state: UnitState, type: string): UnitState | undefined {
  switch (state) {
    case "dispatched":
      return "en_route";
    case "en_route":
      return "on_scene";
    case "on_scene":
      return isEmsUnitType(type) ? "transporting" : "available";
    case "transporting":
      return "at_hospital";
    case "at_hospital":
    case "available_on_scene":
      return "available";
    default:
      return undefined;
  }
}

/** A fraction in [0, 1) fixed by the unit and the moment it entered its state: the same stay however often it is asked. */
function spread(row: CrewRow): number {
  return createHash("sha1").update(`${row.id}@${row.state_changed_at.getTime()}`).digest().readUInt32BE(0) / 2 ** 32;
}

interface CrewRow extends UnitRow {
  speed: number;
  incident_latitude: number | null;
  incident_longitude: number | null;
}

const between = ([low, high]: readonly [number, number], fraction: number) => low + (high - low) * fraction;

/** Seconds of exercise time the unit stays in its state before its crew reports the next. */
function staySeconds(row: CrewRow): number {
  const fraction = spread(row);
  if (row.state === "dispatched") return between(isEmsUnitType(row.type) ? TURNOUT_SECONDS.ems : TURNOUT_SECONDS.fire, fraction);
  if (row.state === "en_route") {
    const from = row.latitude !== null && row.longitude !== null
      ? { latitude: row.latitude, longitude: row.longitude }
      : row.station_latitude !== null && row.station_longitude !== null
        ? { latitude: row.station_latitude, longitude: row.station_longitude }
        : null;
    if (from === null || row.incident_latitude === null || row.incident_longitude === null) return UNKNOWN_DRIVE_SECONDS;
    const speed = speedsKmh()[row.type] ?? DEFAULT_SPEEDS_KMH.other;
    const km = distanceKm(from, { latitude: row.incident_latitude, longitude: row.incident_longitude }) * ROAD_FACTOR;
    return Math.max(30, (km / speed) * 3600);
  }
  return between(STAY_SECONDS[row.state as keyof typeof STAY_SECONDS], fraction);
}

/** Where the crew says it is with its report: at the incident on arrival, at its station once available. */
function positionWith(row: CrewRow, state: UnitState) {
  if (state === "on_scene" && row.incident_latitude !== null && row.incident_longitude !== null) {
    return { latitude: row.incident_latitude, longitude: row.incident_longitude };
  }
  if (state === "available" && row.station_latitude !== null && row.station_longitude !== null) {
    return { latitude: row.station_latitude, longitude: row.station_longitude };
  }
  return null;
}

const REPORTING_STATES: UnitState[] = ["dispatched", "en_route", "on_scene", "transporting", "at_hospital", "available_on_scene"];

/**
 * Every report due at `now` from the crews of running exercises; answers how many were made. One
 * read of the running exercises' busy units, and a transaction only when a report is due; a unit
 * whose state moved since it was read (a dispatcher, another instance's tick) waits for the next tick.
 */
export async function reportCrewsDue(options: { now: Date; db?: Db }): Promise<number> {
  const rows = await (options.db ? read(options.db) : withDatabase(read));
  const due = rows.filter((row) => row.state_changed_at.getTime() + (staySeconds(row) * 1000) / row.speed <= options.now.getTime());
  if (due.length === 0) return 0;
  return writeCalls(
    async (writes) => {
      await writes.lockChangeFeed();
      const locked = new Map((await lockUnits(writes.tx, due.map((row) => row.id))).map((unit) => [unit.id, unit]));
      let reported = 0;
      for (const row of due) {
        const unit = locked.get(row.id);
        const state = nextState(row.state as UnitState, row.type);
        if (!unit || !state || unit.state !== row.state || unit.state_changed_at.getTime() !== row.state_changed_at.getTime()) continue;
        await applyUnitState(writes, unit, { state, position: positionWith(row, state) }, EXERCISE_CREW);
        reported += 1;
      }
      return reported;
    },
    { db: options.db },
  );
}

function read(db: Pick<Db, "$queryRaw">): Promise<CrewRow[]> {
  return db.$queryRaw<CrewRow[]>(Prisma.sql`
    SELECT ${Prisma.raw(UNIT_COLUMNS)}, e.speed, i.latitude AS incident_latitude, i.longitude AS incident_longitude
    FROM units u
    JOIN exercises e ON e.id = u.exercise_id AND e.state = 'running'
    LEFT JOIN incidents i ON i.id = u.incident_id
    WHERE u.exercise_id IS NOT NULL AND u.state = ANY(${REPORTING_STATES}::text[])`);
}

/**
 * An ended exercise's units stand down (docs/exercises.md, "When an exercise ends"): out of service,
 * their assignments closed, in the transaction that ends it; they leave the board with it.
 */
export async function standDownExerciseUnits(writes: CallWrites, exerciseId: string): Promise<void> {
  const busy = await writes.tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM units WHERE exercise_id = ${exerciseId} AND state <> 'out_of_service'`;
  if (busy.length === 0) return;
  await writes.lockChangeFeed();
  for (const unit of await lockUnits(writes.tx, busy.map((row) => row.id))) {
    await applyUnitState(writes, unit, { state: "out_of_service", position: null }, EXERCISE_CREW);
  }
}
