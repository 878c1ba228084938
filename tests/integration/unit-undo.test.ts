import { afterAll, describe, expect, it } from "vitest";
import { PATCH as patchIncidentRoute } from "@/app/api/incidents/[id]/route";
import { POST as assignRoute } from "@/app/api/incidents/[id]/units/route";
import { POST as stateRoute } from "@/app/api/units/[id]/state/route";
import { POST as undoRoute } from "@/app/api/units/[id]/undo-state/route";
import { POST as createRoute } from "@/app/api/units/route";
import { getDb } from "@/lib/db/client";
import { stopChangeTail } from "@/lib/board/change-tail";
import { type Unit, unitSchema } from "@/lib/units/schema";
import { apiRequest } from "../support/auth";
import { insertCalls, makeCalls } from "../support/calls";
import { type SignedInPerson, signedIn } from "../support/people";

/**
 * A unit's one-key move undone (issue 51 item 4; docs/units.md, "Undo"): a crew's report, a send and
 * a clearing each revert exactly, with what they did to the incident; a move is undone only by who
 * made it, within the window, while it is the unit's latest, and never twice.
 */

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

async function as(person: SignedInPerson, handler: Handler, path: string, id: string, body: unknown, method = "POST"): Promise<Response> {
  const request = new Request(`http://localhost${path}`, {
    method,
    headers: { cookie: person.cookie, "sec-fetch-site": "same-origin", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return handler(request, { params: Promise.resolve({ id }) });
}

let dispatcher: SignedInPerson;
let sign = 0;
async function createUnit(): Promise<Unit> {
  sign += 1;
  const body = { call_sign: `U${sign}`, type: "engine", station: "Station 1", station_latitude: 25.77, station_longitude: -80.19 };
  const response = await createRoute(apiRequest("http://localhost/api/units", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), undefined);
  expect(response.status).toBe(201);
  return unitSchema.parse(await response.json());
}

let seed = 5100;
/** A fresh real incident whose calls are all still active. */
async function newIncident(): Promise<string> {
  for (;;) {
    const db = await getDb();
    const calls = makeCalls(10, ++seed).filter((call) => !call.simulation);
    await insertCalls(db, calls);
    const rows = await db.call.findMany({ where: { id: { in: calls.map((call) => call.id) } }, select: { incidentId: true } });
    const active = await db.incident.findFirst({ where: { id: { in: rows.map((row) => row.incidentId) }, status: "active", calls: { every: { status: "active" } } } });
    if (active) return active.id;
  }
}

const send = async (unitId: string, incidentId: string) => {
  const response = await as(dispatcher, assignRoute, `/api/incidents/${incidentId}/units`, incidentId, { unit_ids: [unitId] });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { assignments: { state_change_id: string }[] }).assignments[0].state_change_id;
};
const moveTo = async (unitId: string, body: Record<string, unknown>, person = dispatcher) => {
  const response = await as(person, stateRoute, `/api/units/${unitId}/state`, unitId, body);
  expect(response.status).toBe(200);
  return unitSchema.parse(await response.json());
};
const undo = (unitId: string, changeId: string, person = dispatcher) => as(person, undoRoute, `/api/units/${unitId}/undo-state`, unitId, { change_id: changeId });
const incidentStatus = async (id: string) => (await (await getDb()).incident.findUniqueOrThrow({ where: { id } })).status;
const openAssignmentsOf = async (unitId: string) => (await getDb()).unitAssignment.count({ where: { unitId, clearedAt: null } });

afterAll(async () => {
  await stopChangeTail();
});

describe("undoing a unit's move", () => {
  it("a crew's on scene goes back to en route, once, audited, and only by who entered it", async () => {
    dispatcher = await signedIn("dispatcher", "Dispatcher Undo");
    const [unit, incident] = [await createUnit(), await newIncident()];
    await send(unit.id, incident);
    await moveTo(unit.id, { state: "en_route" });
    const onScene = await moveTo(unit.id, { state: "on_scene" });
    expect(onScene.state_change_id).not.toBeNull();

    const other = await signedIn("dispatcher", "Another Dispatcher");
    const theirs = await undo(unit.id, onScene.state_change_id!, other);
    expect(theirs.status).toBe(409);
    expect((await theirs.json()).message).toMatch(/Only who made a move may undo it/);

    const undone = await undo(unit.id, onScene.state_change_id!);
    expect(undone.status).toBe(200);
    const back = unitSchema.parse(await undone.json());
    expect(back).toMatchObject({ state: "en_route", incident_id: incident });
    expect(await incidentStatus(incident)).toBe("dispatched");
    const db = await getDb();
    const history = await db.unitStateChange.findMany({ where: { unitId: unit.id }, orderBy: { id: "desc" }, take: 1 });
    expect(history[0]).toMatchObject({ fromState: "on_scene", state: "en_route", undoes: BigInt(onScene.state_change_id!) });
    const audit = await db.$queryRaw<{ action: string }[]>`SELECT action FROM audit_events WHERE target_id = ${unit.id} ORDER BY id DESC LIMIT 1`;
    expect(audit[0].action).toBe("unit.state_undone");

    // Never twice, and an undo is not undone: the unit is moved again instead.
    const again = await undo(unit.id, onScene.state_change_id!);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/has moved since/);
    const ofTheUndo = await undo(unit.id, back.state_change_id!);
    expect(ofTheUndo.status).toBe(409);
    expect((await ofTheUndo.json()).message).toMatch(/undo itself/);
  });

  it("a send undone frees the unit and puts the incident back to waiting; a second unit keeps it dispatched", async () => {
    const [first, second, incident] = [await createUnit(), await createUnit(), await newIncident()];
    const sent = await send(first.id, incident);
    expect(await incidentStatus(incident)).toBe("dispatched");
    const undone = await undo(first.id, sent);
    expect(undone.status, await undone.clone().text()).toBe(200);
    expect(unitSchema.parse(await undone.json())).toMatchObject({ state: "available", incident_id: null });
    expect(await openAssignmentsOf(first.id)).toBe(0);
    expect(await incidentStatus(incident)).toBe("active");

    // Two units sent: undoing one leaves the incident with the other, dispatched.
    await send(first.id, incident);
    const secondSent = await send(second.id, incident);
    const secondUndone = await undo(second.id, secondSent);
    expect(secondUndone.status, await secondUndone.clone().text()).toBe(200);
    expect(await incidentStatus(incident)).toBe("dispatched");
    expect(await openAssignmentsOf(first.id)).toBe(1);
  });

  it("a last unit's clearing undone reopens the incident it closed and its assignment", async () => {
    const [unit, incident] = [await createUnit(), await newIncident()];
    await send(unit.id, incident);
    await moveTo(unit.id, { state: "on_scene" });
    const cleared = await moveTo(unit.id, { state: "available", disposition: "handled" });
    expect(await incidentStatus(incident)).toBe("resolved");
    const undone = await undo(unit.id, cleared.state_change_id!);
    expect(undone.status).toBe(200);
    expect(unitSchema.parse(await undone.json())).toMatchObject({ state: "on_scene", incident_id: incident });
    expect(await openAssignmentsOf(unit.id)).toBe(1);
    expect(await incidentStatus(incident)).toBe("dispatched");
  });

  it("refuses a move past the window, one the incident has moved on from, and an unknown move", async () => {
    const [unit, incident] = [await createUnit(), await newIncident()];
    const sent = await send(unit.id, incident);
    const enRoute = await moveTo(unit.id, { state: "en_route" });
    const db = await getDb();
    // The history is append-only (its trigger): the move is aged with the triggers off for this one statement.
    await db.$transaction([
      db.$executeRaw`SET LOCAL session_replication_role = replica`,
      db.$executeRaw`UPDATE unit_state_changes SET at = at - interval '61 seconds' WHERE id = ${enRoute.state_change_id}::bigint`,
    ]);
    const late = await undo(unit.id, enRoute.state_change_id!);
    expect(late.status, await late.clone().text()).toBe(409);
    expect((await late.json()).message).toMatch(/within 60 s/);
    // An older move than the latest: the unit has moved since.
    const older = await undo(unit.id, sent);
    expect(older.status).toBe(409);
    expect(await incidentStatus(incident)).toBe("dispatched");

    // A send whose incident was moved on since (en route by the dispatcher): the incident stays, nothing is undone.
    const [other, otherIncident] = [await createUnit(), await newIncident()];
    const otherSent = await send(other.id, otherIncident);
    const patched = await as(dispatcher, patchIncidentRoute, `/api/incidents/${otherIncident}`, otherIncident, { status: "enroute" }, "PATCH");
    expect(patched.status).toBe(200);
    const refused = await undo(other.id, otherSent);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toMatch(/incident has moved since/);
    expect(await openAssignmentsOf(other.id)).toBe(1);

    const unknown = await undo(unit.id, "999999999");
    expect(unknown.status).toBe(404);
  });
});
