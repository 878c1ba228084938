import { randomInt } from "node:crypto";
import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { uuid7 } from "../db/uuid7";
import { centreIndexIfReadable } from "../geocoding/centre/loaded";
import { findScenario } from "../scenarios/scenario-list";
import type { Scenario } from "../scenarios/types";
import { insertExerciseUnits } from "../units/roster";
import type { UnitFields } from "../units/schema";
import type { UnitType } from "../units/states";
import { callsForPeakRate, planExercise } from "./plan";
import type { CreateExerciseRequest, ExerciseView } from "./schema";
import { startExercise } from "./start";
import { type Clock, exerciseDb, nowOf, readExercise } from "./exercise-rows";

/** Planned calls written per INSERT. */
const PLAN_BATCH = 1000;
const DEFAULT_CALLS = 100;

const randomCallNumber = () => randomInt(100_000_000_000, 1_000_000_000_000);

const CALL_SIGN_LETTER: Record<UnitType, string> = { engine: "E", ladder: "L", rescue: "R", ambulance: "M", patrol: "P", hazmat: "H", command: "C", other: "U" };

/**
 * The exercise's simulated units (docs/exercises.md, "Simulated units"): each type's count, at
 * stations in the scenario's areas in turn; call signs carry the exercise's tag (X7F3A2-E1) so
 * they never clash with the centre's roster or another exercise's.
 */
function simulatedRoster(exerciseId: string, scenario: Scenario, units: CreateExerciseRequest["units"]): UnitFields[] {
  const tag = `X${exerciseId.replaceAll("-", "").slice(-6).toUpperCase()}`;
  let next = 0;
  return units.flatMap(({ type, count }) =>
    Array.from({ length: count }, (_, index) => {
      const area = scenario.areas[next++ % scenario.areas.length];
      return {
        call_sign: `${tag}-${CALL_SIGN_LETTER[type]}${index + 1}`,
        name: `${type} ${index + 1} (exercise)`,
        type,
        station: { name: `${area.name} station`, latitude: area.center.lat, longitude: area.center.lon },
        in_service: true,
      };
    }),
  );
}

/** Plans an exercise and stores it with its calls and its audit row (one transaction); starts it when asked. */
export async function createExercise(request: CreateExerciseRequest, actor: Actor, clock: Clock = {}): Promise<ExerciseView> {
  const db = await exerciseDb();
  const now = nowOf(clock);
  // The request schema admits only known scenarios.
  const scenario = findScenario(request.scenario)!;
  const numCalls =
    request.peak_calls_per_minute === undefined
      ? (request.num_calls ?? DEFAULT_CALLS)
      : callsForPeakRate(request.shape, request.duration_minutes, request.peak_calls_per_minute);
  const seed = request.seed ?? randomInt(0, 2 ** 48 - 1);
  const planned = planExercise({
    scenario,
    shape: request.shape,
    durationMinutes: request.duration_minutes,
    numCalls,
    abandonedShare: request.abandoned_share,
    liveShare: request.live_share,
    seed,
    now,
    callNumber: randomCallNumber,
    centre: await centreIndexIfReadable(),
  });
  const id = uuid7();
  await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`
        INSERT INTO exercises (id, scenario, duration_minutes, planned_calls, shape, speed, abandoned_share, live_share, seed, state, created_at)
        VALUES (${id}, ${scenario.id}, ${request.duration_minutes}, ${planned.length}, ${request.shape}, ${request.speed},
          ${request.abandoned_share}, ${request.live_share}, ${BigInt(seed)}, 'planned', ${now})`;
      for (let start = 0; start < planned.length; start += PLAN_BATCH) {
        const batch = planned.slice(start, start + PLAN_BATCH);
        await tx.$executeRaw`
          INSERT INTO exercise_calls (exercise_id, seq, due_offset_ms, abandoned, record, location_source, location_precision, location_uncertainty_m,
            live_script)
          SELECT ${id}, r.seq, r.due, r.abandoned, r.record::jsonb, r.source, r.precision, r.uncertainty_m, r.live_script::jsonb
          FROM unnest(${batch.map((row) => row.seq)}::int[], ${batch.map((row) => row.dueOffsetMs)}::int[],
            ${batch.map((row) => row.abandoned)}::boolean[], ${batch.map((row) => JSON.stringify(row.call))}::text[],
            ${batch.map((row) => row.placement.source)}::text[], ${batch.map((row) => row.placement.precision)}::text[],
            ${batch.map((row) => row.placement.uncertaintyMeters)}::float8[],
            ${batch.map((row) => (row.live ? JSON.stringify(row.live) : null))}::text[])
            AS r(seq, due, abandoned, record, source, precision, uncertainty_m, live_script)`;
      }
      const roster = simulatedRoster(id, scenario, request.units);
      await insertExerciseUnits(tx, id, roster, actor);
      await recordAudit(tx, actor, {
        action: "exercise.created",
        target: { kind: "exercise", id },
        after: { scenario: scenario.id, shape: request.shape, duration_minutes: request.duration_minutes, planned_calls: planned.length, speed: request.speed,
          live_share: request.live_share, units: roster.map((unit) => unit.call_sign) },
      });
    },
    { timeout: 60_000 },
  );
  return request.start ? startExercise(id, actor, clock) : readExercise(db, now, id);
}
