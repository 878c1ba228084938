import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { POST as assignRoute, GET as recommendRoute } from "@/app/api/incidents/[id]/units/route";
import { POST as positionRoute } from "@/app/api/units/[id]/position/route";
import { POST as importRoute } from "@/app/api/units/import/route";
import { GET as unitRoute, PATCH as patchUnitRoute } from "@/app/api/units/[id]/route";
import { POST as stateRoute } from "@/app/api/units/[id]/state/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/units/route";
import { POST as subscribeRoute } from "@/app/api/subscriptions/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { readFeedHead } from "@/lib/feed";
import { changePageSchema } from "@/lib/board/schema";
import { GET as changesRoute } from "@/app/api/calls/changes/route";
import { stopChangeTail } from "@/lib/board/change-tail";
import { startDeliveryWorker } from "@/lib/subscriptions/worker";
import { type Unit, unitListSchema, unitSchema } from "@/lib/units/schema";
import { apiRequest } from "../support/auth";
import { insertCalls, makeCalls } from "../support/calls";
import { signedIn } from "../support/people";

const json = { "content-type": "application/json" };
const context = (id: string) => ({ params: Promise.resolve({ id }) });
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  apiRequest(`http://localhost${url}`, { method: "POST", headers: { ...json, ...headers }, body: JSON.stringify(body) });

let sign = 0;
async function createUnit(fields: Record<string, unknown> = {}): Promise<Unit> {
  sign += 1;
  const response = await createRoute(post("/api/units", { call_sign: `E${sign}`, type: "engine", station: "Station 1", station_latitude: 25.77, station_longitude: -80.19, ...fields }), undefined);
  expect(response.status).toBe(201);
  return unitSchema.parse(await response.json());
}

let seed = 900;
const incidents: string[] = [];
/** Fresh real incidents whose calls are all still active (each fixture call has an incident of its own). */
async function newIncidents(count: number): Promise<string[]> {
  while (incidents.length < count) {
    const db = await getDb();
    const calls = makeCalls(40, ++seed).filter((call) => !call.simulation);
    await insertCalls(db, calls);
    const rows = await db.call.findMany({ where: { id: { in: calls.map((call) => call.id) } }, select: { incidentId: true } });
    const active = await db.incident.findMany({ where: { id: { in: rows.map((row) => row.incidentId) }, status: "active", calls: { every: { status: "active" } } }, select: { id: true } });
    incidents.push(...active.map((row) => row.id));
  }
  return incidents.splice(0, count);
}

const assign = (incidentId: string, body: unknown, headers: Record<string, string> = {}) =>
  assignRoute(post(`/api/incidents/${incidentId}/units`, body, headers), context(incidentId));
const moveTo = (unitId: string, body: unknown) => stateRoute(post(`/api/units/${unitId}/state`, body), context(unitId));
/** The incident in words as a refusal names it: its type and address, never its id. */
const inWords = async (id: string) => {
  const incident = await (await getDb()).incident.findUniqueOrThrow({ where: { id } });
  return `a ${incident.emergencyType.replaceAll("_", " ")} at ${incident.locationMatched ?? incident.location}`;
};
const incidentStatus = async (id: string) => (await (await getDb()).incident.findUniqueOrThrow({ where: { id } })).status;
const unitOf = async (id: string) => unitSchema.parse(await (await unitRoute(apiRequest(`http://localhost/api/units/${id}`), context(id))).json());

afterAll(async () => {
  await stopChangeTail();
});

describe("the roster", () => {
  it("creates, lists and corrects units; a call sign is unique whatever its case", async () => {
    const unit = await createUnit({ call_sign: "Medic 7", type: "ambulance", name: "Medic Seven" });
    expect(unit).toMatchObject({ call_sign: "Medic 7", name: "Medic Seven", type: "ambulance", state: "available", in_service: true, incident_id: null });
    expect(unit.station).toEqual({ name: "Station 1", latitude: 25.77, longitude: -80.19 });
    const clash = await createRoute(post("/api/units", { call_sign: "medic 7", type: "ambulance" }), undefined);
    expect(clash.status).toBe(409);
    const bad = await createRoute(post("/api/units", { call_sign: "X1", type: "submarine" }), undefined);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/type must be one of engine/);

    const patched = await patchUnitRoute(
      apiRequest(`http://localhost/api/units/${unit.id}`, { method: "PATCH", headers: json, body: JSON.stringify({ name: "Medic 7 (spare)", in_service: false }) }),
      context(unit.id),
    );
    expect(patched.status).toBe(200);
    expect(unitSchema.parse(await patched.json())).toMatchObject({ name: "Medic 7 (spare)", state: "out_of_service", in_service: false });
    const listed = unitListSchema.parse(await (await listRoute(apiRequest("http://localhost/api/units"), undefined)).json());
    expect(listed.units.find((entry) => entry.id === unit.id)?.state).toBe("out_of_service");
    const audit = await (await getDb()).auditEvent.findMany({ where: { targetId: unit.id }, orderBy: { at: "asc" } });
    expect(audit.map((row) => row.action)).toEqual(["unit.created", "unit.updated", "unit.state_changed"]);
  });

  it("a dispatcher may not edit the roster", async () => {
    const dispatcher = await signedIn("dispatcher");
    const response = await createRoute(post("/api/units", { call_sign: "P1", type: "patrol" }, { cookie: dispatcher.cookie }), undefined);
    expect(response.status).toBe(403);
  });

  it("imports a CSV file, all or none, naming the line in error", async () => {
    const db = await getDb();
    const before = await db.unit.count();
    const broken = "call_sign,type,station,station_latitude,station_longitude\nL1,ladder,Station 2,25.8,-80.2\nL2,ladder,Station 2,95,-80.2\n";
    const refused = await importRoute(post("/api/units/import", { csv: broken }), undefined);
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.line).toBe(3);
    expect(body.message).toMatch(/^Line 3: station_latitude must be a number from -90 to 90; nothing was imported$/);
    expect(await db.unit.count()).toBe(before);

    const twice = await importRoute(post("/api/units/import", { csv: "call_sign,type\nR1,rescue\nr1,rescue\n" }), undefined);
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toMatch(/^Line 3: call sign r1 is also on line 2/);
    expect(await db.unit.count()).toBe(before);

    const good = "call_sign,type,name,in_service\nL1,ladder,Ladder One,true\nA9,ambulance,,no\n";
    const imported = await importRoute(post("/api/units/import", { csv: good }), undefined);
    expect(imported.status).toBe(201);
    const result = await imported.json();
    expect(result.created).toBe(2);
    expect(result.units.map((unit: Unit) => [unit.call_sign, unit.name, unit.state])).toEqual([["A9", "A9", "out_of_service"], ["L1", "Ladder One", "available"]]);
    const again = await importRoute(post("/api/units/import", { csv: "call_sign,type\nZ1,engine\nl1,ladder\n" }), undefined);
    expect(again.status).toBe(409);
    expect((await again.json()).line).toBe(3);
    expect(await db.unit.count()).toBe(before + 2);
  });
});

describe("states and dispatch", () => {
  it("keeps every state change as a row with time, actor and position, and refuses a state of an assignment without one", async () => {
    const unit = await createUnit();
    const unassigned = await moveTo(unit.id, { state: "en_route" });
    expect(unassigned.status).toBe(409);
    expect((await unassigned.json()).error_code).toBe("UNIT_NOT_ASSIGNED");
    const [incident] = await newIncidents(1);
    expect((await assign(incident, { unit_ids: [unit.id] })).status).toBe(201);
    const moved = await moveTo(unit.id, { state: "en_route", latitude: 25.78, longitude: -80.2 });
    expect(moved.status).toBe(200);
    expect(unitSchema.parse(await moved.json())).toMatchObject({ state: "en_route", incident_id: incident, position: { latitude: 25.78, longitude: -80.2 } });
    expect((await moveTo(unit.id, { state: "on_scene" })).status).toBe(200);
    const rows = await (await getDb()).unitStateChange.findMany({ where: { unitId: unit.id }, orderBy: { id: "asc" } });
    expect(rows.map((row) => [row.fromState, row.state, row.incidentId, row.changedByName, row.latitude])).toEqual([
      [null, "available", null, "API_KEY", null],
      ["available", "dispatched", incident, "API_KEY", null],
      ["dispatched", "en_route", incident, "API_KEY", 25.78],
      ["en_route", "on_scene", incident, "API_KEY", null],
    ]);
    expect(rows[3].at.getTime()).toBeGreaterThanOrEqual(rows[2].at.getTime());
    await expect((await getDb()).$executeRaw`UPDATE unit_state_changes SET state = 'available' WHERE unit_id = ${unit.id}`).rejects.toThrow(/append-only/);
  });

  it("refuses an unavailable unit without confirmation, saying why, and changes nothing", async () => {
    const [first, second] = await newIncidents(2);
    const free = await createUnit();
    const busy = await createUnit();
    expect((await assign(first, { unit_ids: [busy.id] })).status).toBe(201);
    const db = await getDb();
    const assignmentsBefore = await db.unitAssignment.count();
    const refused = await assign(second, { unit_ids: [free.id, busy.id] });
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body.error_code).toBe("UNIT_UNAVAILABLE");
    expect(body.units).toEqual([{ id: busy.id, call_sign: busy.call_sign, state: "dispatched", incident_id: first, reason: `dispatched to ${await inWords(first)}` }]);
    expect(body.message).not.toContain(first);
    expect(body.message).toContain("confirm: true");
    expect(await db.unitAssignment.count()).toBe(assignmentsBefore);
    expect((await unitOf(free.id)).state).toBe("available");
    expect(await incidentStatus(second)).toBe("active");

    const confirmed = await assign(second, { unit_ids: [free.id, busy.id], confirm: true });
    expect(confirmed.status).toBe(201);
    const answer = await confirmed.json();
    expect(answer.assignments.map((entry: { call_sign: string; confirmed_from_state: string | null }) => [entry.call_sign, entry.confirmed_from_state]).sort()).toEqual(
      [[busy.call_sign, "dispatched"], [free.call_sign, null]].sort(),
    );
    expect((await unitOf(busy.id)).incident_id).toBe(second);
    // The first incident lost its last unit while dispatched: it follows.
    expect(await incidentStatus(first)).toBe("resolved");
    expect(await db.unitAssignment.count({ where: { unitId: busy.id, clearedAt: null } })).toBe(1);
  });

  it("the incident follows its units: dispatched with the first, resolved when the last clears, unless a dispatcher moved it", async () => {
    const [incident, handled] = await newIncidents(2);
    const [a, b, c] = [await createUnit(), await createUnit(), await createUnit()];
    const activeCalls = (await (await getDb()).call.findMany({ where: { incidentId: incident } })).map((call) => call.id);
    expect(activeCalls.length).toBeGreaterThan(0);
    const sent = await assign(incident, { unit_ids: [a.id, b.id] });
    expect((await sent.json()).incident_status).toBe("dispatched");
    expect(await incidentStatus(incident)).toBe("dispatched");
    // Its calls moved with it, each with its history row (the incidents' own status move).
    const calls = await (await getDb()).call.findMany({ where: { id: { in: activeCalls } } });
    expect(calls.map((call) => call.status)).toEqual(activeCalls.map(() => "dispatched"));
    expect((await moveTo(a.id, { state: "available" })).status).toBe(200);
    expect(await incidentStatus(incident)).toBe("dispatched");
    expect((await (await getDb()).unitAssignment.findFirstOrThrow({ where: { unitId: a.id } })).clearedAt).not.toBeNull();
    expect((await moveTo(b.id, { state: "out_of_service" })).status).toBe(200);
    expect(await incidentStatus(incident)).toBe("resolved");
    expect((await assign(incident, { unit_ids: [c.id] })).status).toBe(409);

    expect((await assign(handled, { unit_ids: [c.id] })).status).toBe(201);
    const { PATCH: patchIncident } = await import("@/app/api/incidents/[id]/route");
    const moved = await patchIncident(
      apiRequest(`http://localhost/api/incidents/${handled}`, { method: "PATCH", headers: json, body: JSON.stringify({ status: "enroute" }) }),
      context(handled),
    );
    expect(moved.status).toBe(200);
    expect((await moveTo(c.id, { state: "available" })).status).toBe(200);
    expect(await incidentStatus(handled)).toBe("enroute");
  });

  it("a merged-away incident's units move with its calls to the surviving incident, its cleared assignments too", async () => {
    const [kept, merged] = await newIncidents(2);
    const unit = await createUnit();
    const cleared = await createUnit();
    expect((await assign(merged, { unit_ids: [unit.id, cleared.id] })).status).toBe(201);
    expect((await moveTo(cleared.id, { state: "en_route" })).status).toBe(200);
    expect((await moveTo(cleared.id, { state: "available" })).status).toBe(200);
    const { POST: mergeRoute } = await import("@/app/api/incidents/[id]/merge/route");
    const response = await mergeRoute(post(`/api/incidents/${kept}/merge`, { other_id: merged }), context(kept));
    expect(response.status).toBe(200);
    expect(await (await getDb()).incident.findUnique({ where: { id: merged } })).toBeNull();
    expect(await unitOf(unit.id)).toMatchObject({ state: "dispatched", incident_id: kept });
    const open = await (await getDb()).unitAssignment.findMany({ where: { unitId: unit.id, clearedAt: null } });
    expect(open.map((assignment) => assignment.incidentId)).toEqual([kept]);
    // The cleared assignment is the emergency's history (its turnout, its EIDO resource): kept, under the survivor.
    const history = await (await getDb()).unitAssignment.findMany({ where: { unitId: cleared.id } });
    expect(history.map((assignment) => [assignment.incidentId, assignment.clearedAt !== null])).toEqual([[kept, true]]);
    expect((await moveTo(unit.id, { state: "en_route" })).status).toBe(200);
  });

  it("moves the change feed's head with every unit change", async () => {
    const db = await getDb();
    const before = await readFeedHead(db);
    const unit = await createUnit();
    const afterCreate = await readFeedHead(db);
    expect(afterCreate).toBeGreaterThan(before);
    const [incident] = await newIncidents(1);
    const afterCalls = await readFeedHead(db);
    expect((await assign(incident, { unit_ids: [unit.id] })).status).toBe(201);
    expect(await readFeedHead(db)).toBeGreaterThan(afterCalls);
    // The feed carries the unit once, at its latest state.
    const page = changePageSchema.parse(await (await changesRoute(apiRequest(`http://localhost/api/calls/changes?after=${before}`), undefined)).json());
    const units = page.changes.flatMap((change) => ("unit" in change ? [change.unit] : []));
    expect(units.filter((entry) => entry.id === unit.id).map((entry) => [entry.state, entry.incident_id])).toEqual([["dispatched", incident]]);
  });

  it("of 50 concurrent assignments of one unit to 50 incidents, exactly one succeeds without confirmation", async () => {
    const unit = await createUnit();
    const targets = await newIncidents(50);
    const answers = await Promise.all(targets.map((incident) => assign(incident, { unit_ids: [unit.id] })));
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    const db = await getDb();
    const open = await db.unitAssignment.findMany({ where: { unitId: unit.id } });
    expect(open).toHaveLength(1);
    expect(open[0].clearedAt).toBeNull();
    expect((await unitOf(unit.id)).incident_id).toBe(open[0].incidentId);
  });
});

describe("positions and recommendation", () => {
  it("ranks available units by straight-line distance from a fresh position or the home station, saying why; a stale position is flagged and passed over", async () => {
    const db = await getDb();
    const [incident] = await newIncidents(1);
    // A shelter question's plan sends no unit: the ranking is by travel time alone (plans: tests/integration/response-plans.test.ts).
    await db.$executeRaw`UPDATE incidents SET latitude = 40.0, longitude = -75.0, emergency_type = 'shelter_information' WHERE id = ${incident}`;
    const tag = `R${Date.now().toString(36)}`;
    // Station 11.1 km north; a patrol reporting 2.2 km away; an ambulance whose fix near the incident is stale.
    const far = await createUnit({ call_sign: `${tag}-E`, type: "engine", station: "Station 9", station_latitude: 40.1, station_longitude: -75.0 });
    const near = await createUnit({ call_sign: `${tag}-P`, type: "patrol", station: "Station 9", station_latitude: 40.1, station_longitude: -75.0 });
    const stale = await createUnit({ call_sign: `${tag}-A`, type: "ambulance", station: "Station 4", station_latitude: 40.2, station_longitude: -75.0 });
    const busy = await createUnit({ call_sign: `${tag}-B`, type: "engine", station: "Station 9", station_latitude: 40.0, station_longitude: -75.0 });
    await assign((await newIncidents(1))[0], { unit_ids: [busy.id] });

    const reported = await positionRoute(post(`/api/units/${near.id}/position`, { latitude: 40.02, longitude: -75.0 }), context(near.id));
    expect(reported.status).toBe(200);
    expect(unitSchema.parse(await reported.json()).position).toMatchObject({ latitude: 40.02, longitude: -75.0, stale: false });
    const old = new Date(Date.now() - 3_600_000).toISOString();
    const staleReport = await positionRoute(post(`/api/units/${stale.id}/position`, { latitude: 40.001, longitude: -75.0, at: old }), context(stale.id));
    expect(unitSchema.parse(await staleReport.json()).position).toMatchObject({ stale: true });
    // An older fix than the kept one changes nothing.
    await positionRoute(post(`/api/units/${near.id}/position`, { latitude: 41, longitude: -75.0, at: old }), context(near.id));
    expect((await unitOf(near.id)).position?.latitude).toBe(40.02);
    expect((await positionRoute(post(`/api/units/${near.id}/position`, { latitude: 91, longitude: 0 }), context(near.id))).status).toBe(400);

    const response = await recommendRoute(apiRequest(`http://localhost/api/incidents/${incident}/units`), context(incident));
    expect(response.status).toBe(200);
    const ranking = (await response.json()) as { incident_located: boolean; units: { unit: Unit; distance_km: number; travel_minutes: number; from: string; reason: string }[] };
    expect(ranking.incident_located).toBe(true);
    const ours = ranking.units.filter((entry) => entry.unit.call_sign.startsWith(tag));
    expect(ours.map((entry) => [entry.unit.call_sign, entry.from])).toEqual([[`${tag}-P`, "position"], [`${tag}-E`, "station"], [`${tag}-A`, "station"]]);
    expect(ours[0].distance_km).toBeCloseTo(2.22, 1);
    expect(ours[0].travel_minutes).toBeCloseTo((2.224 / 70) * 60, 0);
    expect(ours[0].reason).toMatch(/^2\.2 km from its last position, about 2 min at 70 km\/h$/);
    expect(ours[1].distance_km).toBeCloseTo(11.12, 1);
    expect(ours[1].reason).toContain("from Station 9 (home station)");
    expect(ours[2].reason).toMatch(/is stale, from Station 4 \(home station\)/);
    expect(ours[2].distance_km).toBeCloseTo(22.24, 1);
    expect(far.id).toBeTruthy();
  });
});

describe("outbound events", () => {
  it("delivers unit.assigned and unit.state_changed, signed", async () => {
    process.env.SUBSCRIPTION_ALLOW_PRIVATE_TARGETS = "true";
    resetConfigForTests();
    const received: { headers: Record<string, string>; body: string }[] = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])), body: Buffer.concat(chunks).toString("utf8") });
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const worker = startDeliveryWorker({ retry: { firstMs: 20, maxMs: 80, windowMs: 60_000 }, pollMs: 50 });
    try {
      const created = await subscribeRoute(post("/api/subscriptions", { name: "CAD", url, event_types: ["unit.assigned", "unit.state_changed"] }), undefined);
      expect(created.status).toBe(201);
      const { secret } = await created.json();
      const unit = await createUnit();
      const [incident] = await newIncidents(1);
      expect((await assign(incident, { unit_ids: [unit.id] })).status).toBe(201);
      expect((await moveTo(unit.id, { state: "en_route", latitude: 25.7, longitude: -80.1 })).status).toBe(200);
      const verifier = new Webhook(secret);
      const ofUnit = () =>
        received.map((entry) => verifier.verify(entry.body, entry.headers) as { type: string; data: { unit: Unit; state_change?: { state: string }; assignment?: { incident_id: string } } })
          .filter((event) => event.data.unit.id === unit.id);
      for (let round = 0; round < 200 && ofUnit().length < 4; round++) {
        worker.kick();
        await worker.idle();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const events = ofUnit();
      expect(events.map((event) => [event.type, event.data.state_change?.state ?? event.data.assignment?.incident_id])).toEqual([
        ["unit.state_changed", "available"],
        ["unit.assigned", incident],
        ["unit.state_changed", "dispatched"],
        ["unit.state_changed", "en_route"],
      ]);
    } finally {
      await worker.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await (await getDb()).$executeRaw`DELETE FROM subscriptions`;
    }
  });
});
