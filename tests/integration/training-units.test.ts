import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as recommendRoute, POST as assignRoute } from "@/app/api/incidents/[id]/units/route";
import { POST as positionRoute } from "@/app/api/units/[id]/position/route";
import { PATCH as patchUnitRoute } from "@/app/api/units/[id]/route";
import { POST as stateRoute } from "@/app/api/units/[id]/state/route";
import { POST as createUnitRoute } from "@/app/api/units/route";
import { API_KEY_ACTOR } from "@/lib/access/actor";
import { createKey } from "@/lib/access/keys";
import { getDb } from "@/lib/db/client";
import { createExercise } from "@/lib/exercises/create";
import { parseCreateExercise } from "@/lib/exercises/schema";
import { recommendationSchema, type Unit, unitSchema } from "@/lib/units/schema";
import { testAdmin } from "../support/auth";
import { insertCalls, makeCalls } from "../support/calls";
import { signedIn } from "../support/people";
import { type Credentials, requestAs, routeContext } from "../support/requester";

/**
 * The training boundary holds for units (lib/units/training.ts, docs/units.md "Training and real
 * units"): whoever asks, confirmed or not, a training incident takes no real unit, so an exercise
 * never closes a real assignment and no real incident or call moves; a trainer reaches no other
 * unit write either.
 */

const runId = randomInt(1_000_000);
let seed = runId;
const context = routeContext;
const request = requestAs;

const admin: Credentials = {};
let trainer: Credentials;
let trainKey: Credentials;
let dispatcher: Credentials;

async function newUnit(): Promise<Unit> {
  const response = await createUnitRoute(request(admin, "/api/units", "POST", { call_sign: `T${runId}-${++seed}`, type: "engine" }), undefined);
  expect(response.status).toBe(201);
  return unitSchema.parse(await response.json());
}

/** One open call of the kind asked for, in an incident of its own (`exerciseId`: an exercise's call). */
async function newIncident(simulated: boolean, exerciseId: string | null = null): Promise<{ incidentId: string; callId: string }> {
  const db = await getDb();
  const [fixture] = makeCalls(40, ++seed).filter((call) => call.simulation === simulated);
  const call = { ...fixture, status: "active", exerciseId };
  await insertCalls(db, [call]);
  const stored = await db.call.findUniqueOrThrow({ where: { id: call.id } });
  return { incidentId: stored.incidentId, callId: stored.id };
}

const assign = (credentials: Credentials, incidentId: string, unitIds: string[], confirm?: boolean) =>
  assignRoute(request(credentials, `/api/incidents/${incidentId}/units`, "POST", { unit_ids: unitIds, ...(confirm === undefined ? {} : { confirm }) }), context(incidentId));
const moveTo = (credentials: Credentials, unitId: string, body: unknown) => stateRoute(request(credentials, `/api/units/${unitId}/state`, "POST", body), context(unitId));
const recommended = async (incidentId: string) =>
  recommendationSchema.parse(await (await recommendRoute(request(admin, `/api/incidents/${incidentId}/units`, "GET"), context(incidentId))).json()).units.map((entry) => entry.unit.id);

/** Everything real that an exercise must never move: the real incidents, their calls and assignments, the real units. */
async function realPicture(incidentIds: string[], unitIds: string[]) {
  const db = await getDb();
  return {
    incidents: await db.incident.findMany({ where: { id: { in: incidentIds } }, select: { id: true, status: true }, orderBy: { id: "asc" } }),
    calls: await db.call.findMany({ where: { incidentId: { in: incidentIds } }, select: { id: true, status: true, incidentId: true }, orderBy: { id: "asc" } }),
    callHistory: await db.callStatusChange.count({ where: { call: { incidentId: { in: incidentIds } } } }),
    assignments: await db.unitAssignment.findMany({
      where: { unitId: { in: unitIds } },
      select: { unitId: true, incidentId: true, clearedAt: true },
      orderBy: [{ unitId: "asc" }, { assignedAt: "asc" }],
    }),
    units: await db.unit.findMany({ where: { id: { in: unitIds } }, select: { id: true, state: true, incidentId: true, latitude: true }, orderBy: { id: "asc" } }),
    unitHistory: await db.unitStateChange.count({ where: { unitId: { in: unitIds } } }),
  };
}

beforeAll(async () => {
  const [trainerPerson, dispatcherPerson] = await Promise.all([signedIn("trainer"), signedIn("dispatcher")]);
  const session = (cookie: string) => ({ cookie, "sec-fetch-site": "same-origin" });
  trainer = session(trainerPerson.cookie);
  dispatcher = session(dispatcherPerson.cookie);
  trainKey = { authorization: `Bearer ${(await createKey({ name: "train only", scopes: ["train"] }, API_KEY_ACTOR)).key}` };
});

describe("a training incident takes no real unit", () => {
  it("refuses a trainer's session, a train key and a dispatcher, with and without confirm, for a real unit available, dispatched or available on scene; nothing real moves", async () => {
    // The real side: an available unit, one dispatched on a real incident, one available on scene at another. Each busy
    // unit is its incident's only one, so closing its assignment would resolve that incident and its call.
    const [available, dispatched, onScene] = [await newUnit(), await newUnit(), await newUnit()];
    const [first, second] = [await newIncident(false), await newIncident(false)];
    expect((await assign(admin, first.incidentId, [dispatched.id])).status).toBe(201);
    expect((await assign(admin, second.incidentId, [onScene.id])).status).toBe(201);
    for (const state of ["on_scene", "available_on_scene"]) expect((await moveTo(admin, onScene.id, { state })).status).toBe(200);
    const realIncidents = [first.incidentId, second.incidentId];
    const realUnits = [available.id, dispatched.id, onScene.id];
    const before = await realPicture(realIncidents, realUnits);
    expect(before.incidents.map((incident) => incident.status)).toEqual(["dispatched", "dispatched"]);
    expect(before.calls.map((call) => call.status)).toEqual(["dispatched", "dispatched"]);
    expect(before.units.map((unit) => [unit.id, unit.state, unit.incidentId]).sort()).toEqual(
      [[available.id, "available", null], [dispatched.id, "dispatched", first.incidentId], [onScene.id, "available_on_scene", second.incidentId]].sort(),
    );

    // The training side: a simulation's incident, and an exercise's incident with its own simulated engine.
    const simulation = await newIncident(true);
    const exercise = await createExercise(
      parseCreateExercise({ scenario: "la_wildfire", duration_minutes: 30, num_calls: 5, units: [{ type: "engine", count: 1 }] }),
      testAdmin,
    );
    const exerciseIncident = await newIncident(true, exercise.id);
    const [simulated] = await (await getDb()).unit.findMany({ where: { exerciseId: exercise.id } });

    const serving: Record<string, string | null> = { [available.id]: null, [dispatched.id]: first.incidentId, [onScene.id]: second.incidentId };
    for (const [who, credentials] of [["trainer", trainer], ["train key", trainKey], ["dispatcher", dispatcher]] as const) {
      for (const incidentId of [simulation.incidentId, exerciseIncident.incidentId]) {
        for (const unit of [available, dispatched, onScene]) {
          for (const confirm of [undefined, false, true]) {
            const response = await assign(credentials, incidentId, [unit.id], confirm);
            const label = `${who} sends ${unit.call_sign} (${serving[unit.id] ?? "free"}) to ${incidentId}, confirm ${confirm}`;
            expect(response.status, label).toBe(409);
            const body = await response.json();
            expect(body.error_code, label).toBe("TRAINING_MIX");
            // What it is doing, in words (its state and the incident's type and address), never an id.
            const why = serving[unit.id] === null ? "" : `, ${unit.id === dispatched.id ? "dispatched to" : "available on scene at"} a `;
            expect(body.message, label).toContain(`${unit.call_sign} is a real unit${why}`);
            expect(body.message, label).toContain(": a training incident takes only its own exercise's simulated units, so an exercise never takes a real unit");
            if (serving[unit.id] !== null) expect(body.message, label).not.toContain(serving[unit.id]);
          }
        }
      }
      // With the exercise's own unit in the same request: still nothing is sent.
      const together = await assign(credentials, exerciseIncident.incidentId, [simulated.id, dispatched.id], true);
      expect(together.status).toBe(409);
      expect((await (await getDb()).unit.findUniqueOrThrow({ where: { id: simulated.id } })).state).toBe("available");
    }
    // A trainer or a train key on the real incidents themselves: 403, as for their calls.
    for (const credentials of [trainer, trainKey]) {
      for (const incidentId of realIncidents) {
        for (const confirm of [false, true]) {
          const response = await assign(credentials, incidentId, [available.id, dispatched.id, onScene.id], confirm);
          expect(response.status).toBe(403);
          expect(await response.json()).toMatchObject({ error_code: "FORBIDDEN", message: expect.stringContaining("a trainer on training calls only") });
        }
      }
    }

    const after = await realPicture(realIncidents, realUnits);
    expect(after).toEqual(before);
    expect(after.incidents.map((incident) => incident.status)).toEqual(["dispatched", "dispatched"]);
    expect(after.assignments.filter((assignment) => assignment.clearedAt === null).map((assignment) => [assignment.unitId, assignment.incidentId]).sort()).toEqual(
      [[dispatched.id, first.incidentId], [onScene.id, second.incidentId]].sort(),
    );
    const db = await getDb();
    expect(await db.auditEvent.count({ where: { action: "incident.units_assigned", targetId: { in: [simulation.incidentId, exerciseIncident.incidentId] } } })).toBe(0);

    // What the training incidents are offered, and the one they may take: the exercise's own unit, which a trainer sends.
    expect(await recommended(simulation.incidentId)).toEqual([]);
    expect(await recommended(exerciseIncident.incidentId)).toEqual([simulated.id]);
    const offeredReal = await recommended(first.incidentId);
    expect(offeredReal).toEqual(expect.arrayContaining([available.id, onScene.id]));
    expect(offeredReal).not.toContain(simulated.id);
    const sent = await assign(trainer, exerciseIncident.incidentId, [simulated.id]);
    expect(sent.status).toBe(201);
    expect(await realPicture(realIncidents, realUnits)).toEqual(before);
  });

  it("leaves a trainer and a train key no other unit write on a real unit: state, position and roster answer 403", async () => {
    const unit = await newUnit();
    const { incidentId } = await newIncident(false);
    expect((await assign(admin, incidentId, [unit.id])).status).toBe(201);
    const before = await realPicture([incidentId], [unit.id]);
    for (const credentials of [trainer, trainKey]) {
      for (const state of ["available", "out_of_service", "en_route"]) {
        expect((await moveTo(credentials, unit.id, { state })).status).toBe(403);
      }
      expect((await positionRoute(request(credentials, `/api/units/${unit.id}/position`, "POST", { latitude: 25.7, longitude: -80.2 }), context(unit.id))).status).toBe(403);
      expect((await patchUnitRoute(request(credentials, `/api/units/${unit.id}`, "PATCH", { in_service: false }), context(unit.id))).status).toBe(403);
    }
    expect(await realPicture([incidentId], [unit.id])).toEqual(before);
    expect(before.incidents[0].status).toBe("dispatched");
  });
});
