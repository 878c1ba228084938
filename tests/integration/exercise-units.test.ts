import { describe, expect, it } from "vitest";
import { GET as recommendRoute, POST as assignRoute } from "@/app/api/incidents/[id]/units/route";
import { GET as listUnitsRoute } from "@/app/api/units/route";
import { getDb } from "@/lib/db/client";
import { createExercise } from "@/lib/exercises/create";
import { parseCreateExercise } from "@/lib/exercises/schema";
import { releaseDueCalls } from "@/lib/exercises/scheduler";
import { stopExercise } from "@/lib/exercises/stop";
import { findScenario } from "@/lib/scenarios/scenario-list";
import { recommendationSchema, type Unit, unitListSchema } from "@/lib/units/schema";
import { apiRequest, testAdmin } from "../support/auth";
import { insertCalls, makeCalls } from "../support/calls";
import { manualClock } from "../support/exercise-clock";

const context = (id: string) => ({ params: Promise.resolve({ id }) });
const assign = (incidentId: string, unitIds: string[]) =>
  assignRoute(
    apiRequest(`http://localhost/api/incidents/${incidentId}/units`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ unit_ids: unitIds }),
    }),
    context(incidentId),
  );
const recommended = async (incidentId: string) =>
  recommendationSchema.parse(await (await recommendRoute(apiRequest(`http://localhost/api/incidents/${incidentId}/units`), context(incidentId))).json()).units.map(
    (entry) => entry.unit.id,
  );
const board = async () => unitListSchema.parse(await (await listUnitsRoute(apiRequest("http://localhost/api/units"), undefined)).json()).units;

/** The unit's moves after its creation, oldest first, with who reported each. */
async function moves(unitId: string) {
  const rows = await (await getDb()).unitStateChange.findMany({ where: { unitId, fromState: { not: null } }, orderBy: { id: "asc" } });
  return rows.map((row) => ({ state: row.state, by: row.changedBy, latitude: row.latitude, longitude: row.longitude }));
}

describe("an exercise's simulated units", () => {
  it("are made with the exercise, serve only its incidents, and their crews report each state until they are available again", async () => {
    // The crews' times count from the database's own clock: the test's starts at the wall clock's now and only runs ahead.
    const clock = manualClock(Date.now());
    const exercise = await createExercise(
      parseCreateExercise({
        scenario: "nashville_tornado", num_calls: 40, duration_minutes: 240, speed: 60, seed: 3, abandoned_share: 0, start: true,
        units: [{ type: "engine", count: 2 }, { type: "ambulance", count: 1 }],
      }),
      testAdmin,
      clock,
    );
    const scenario = findScenario("nashville_tornado")!;
    const units = (await board()).filter((unit) => unit.exercise_id === exercise.id);
    expect(units.map((unit) => [unit.type, unit.state, unit.call_sign.replace(/^X[0-9A-F]{6}-/, "")]).sort()).toEqual([
      ["ambulance", "available", "M1"], ["engine", "available", "E1"], ["engine", "available", "E2"],
    ]);
    for (const unit of units) {
      expect(scenario.areas.some((area) => area.center.lat === unit.station?.latitude && area.center.lon === unit.station?.longitude)).toBe(true);
    }
    const engine = units.find((unit) => unit.type === "engine")!;
    const ambulance = units.find((unit) => unit.type === "ambulance")!;

    // Calls come in over the first exercise minutes; one of them, located, gets the units.
    for (let step = 0; step < 20; step++) {
      clock.advance(1_000);
      await releaseDueCalls({ now: clock.now });
    }
    const db = await getDb();
    const incident = await db.incident.findFirstOrThrow({
      where: { exerciseId: exercise.id, status: "active", latitude: { not: null } },
      orderBy: { firstCallAt: "asc" },
    });
    const [real] = makeCalls(1, 4242).filter((call) => !call.simulation);
    await insertCalls(db, [real]);
    const realIncident = (await db.call.findUniqueOrThrow({ where: { id: real.id } })).incidentId;

    expect(await recommended(realIncident)).not.toContain(engine.id);
    expect(await recommended(incident.id)).toEqual(expect.arrayContaining(units.map((unit) => unit.id)));
    const refused = await assign(realIncident, [engine.id]);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error_code: "TRAINING_MIX" });
    expect((await db.unit.findUniqueOrThrow({ where: { id: engine.id } })).state).toBe("available");

    expect((await assign(incident.id, [engine.id, ambulance.id])).status).toBe(201);
    // Two hours of exercise time, a tick every exercise minute.
    for (let step = 0; step < 120; step++) {
      clock.advance(1_000);
      await releaseDueCalls({ now: clock.now });
    }
    const crew = "key:exercise-crew";
    const scene = { latitude: incident.latitude, longitude: incident.longitude };
    expect(await moves(engine.id)).toEqual([
      { state: "dispatched", by: "key:API_KEY", latitude: null, longitude: null },
      { state: "en_route", by: crew, latitude: null, longitude: null },
      { state: "on_scene", by: crew, ...scene },
      { state: "available", by: crew, latitude: engine.station!.latitude, longitude: engine.station!.longitude },
    ]);
    expect((await moves(ambulance.id)).map((move) => move.state)).toEqual(["dispatched", "en_route", "on_scene", "transporting", "at_hospital", "available"]);
    // Their last unit cleared: the incident the crews served is resolved, as a real one is.
    expect((await db.incident.findUniqueOrThrow({ where: { id: incident.id } })).status).toBe("resolved");
    const assignments = await db.unitAssignment.findMany({ where: { incidentId: incident.id } });
    expect(assignments.every((assignment) => assignment.clearedAt !== null)).toBe(true);

    // Sent again, then the exercise is stopped: its units stand down and leave the board.
    const next = await db.incident.findFirstOrThrow({ where: { exerciseId: exercise.id, status: "active" } });
    expect((await assign(next.id, [engine.id])).status).toBe(201);
    await stopExercise(exercise.id, testAdmin, clock);
    expect(await db.unit.findMany({ where: { exerciseId: exercise.id }, select: { state: true, incidentId: true } })).toEqual(
      Array(3).fill({ state: "out_of_service", incidentId: null }),
    );
    expect((await board()).some((unit: Unit) => unit.exercise_id === exercise.id)).toBe(false);
  });
});
