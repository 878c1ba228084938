import { randomInt } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { POST as assignRoute } from "@/app/api/incidents/[id]/units/route";
import { GET as incidentRoute, PATCH as patchRoute } from "@/app/api/incidents/[id]/route";
import { POST as undoRoute } from "@/app/api/incidents/[id]/undo-status/route";
import { GET as intervalsRoute } from "@/app/api/reports/intervals/route";
import { POST as stateRoute } from "@/app/api/units/[id]/state/route";
import { POST as createUnitRoute } from "@/app/api/units/route";
import { getDb } from "@/lib/db/client";
import { incidentDetailSchema } from "@/lib/incidents/schema";
import { stopChangeTail } from "@/lib/board/change-tail";
import { type Unit, unitSchema } from "@/lib/units/schema";
import { insertCalls, makeCalls } from "../support/calls";
import { signedIn } from "../support/people";
import { type Credentials, requestAs, routeContext } from "../support/requester";

/**
 * "Dispatched" means someone was sent, a close says how it ended, and a move is undone exactly
 * (docs/incidents.md, "Dispatch reason and disposition", "Undo"); a unit that cannot be sent says
 * why in words (docs/units.md, "Dispatch").
 */

const runId = randomInt(1_000_000);
let seed = runId;
const context = routeContext;
const request = requestAs;
const key: Credentials = {};

async function newUnit(fields: Record<string, unknown> = {}): Promise<Unit> {
  const response = await createUnitRoute(request(key, "/api/units", "POST", { call_sign: `R${runId}-${++seed}`, type: "engine", ...fields }), undefined);
  expect(response.status).toBe(201);
  return unitSchema.parse(await response.json());
}

/** An open real incident of two active calls at one address. */
async function newIncident(): Promise<{ id: string; calls: string[] }> {
  const db = await getDb();
  const [first, second] = makeCalls(60, ++seed).filter((call) => !call.simulation);
  await insertCalls(db, [{ ...first, status: "active" }]);
  const { incidentId } = await db.call.findUniqueOrThrow({ where: { id: first.id } });
  await insertCalls(db, [{ ...second, status: "active" }]);
  await db.$executeRaw`UPDATE calls SET incident_id = ${incidentId} WHERE id = ${second.id}`;
  return { id: incidentId, calls: [first.id, second.id] };
}

const patch = (credentials: Credentials, id: string, body: unknown) => patchRoute(request(credentials, `/api/incidents/${id}`, "PATCH", body), context(id));
const undo = (credentials: Credentials, id: string, changeId: string) =>
  undoRoute(request(credentials, `/api/incidents/${id}/undo-status`, "POST", { change_id: changeId }), context(id));
const detail = async (id: string) => incidentDetailSchema.parse(await (await incidentRoute(request(key, `/api/incidents/${id}`, "GET"), context(id))).json());
const callStatuses = async (ids: string[]) =>
  (await (await getDb()).call.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } })).map((call) => call.status);
const audits = async (id: string) => (await (await getDb()).auditEvent.findMany({ where: { targetId: id }, orderBy: { at: "asc" } })).map((row) => row.action);

afterAll(async () => {
  await stopChangeTail();
});

describe("dispatched means someone was sent", () => {
  it("refuses a move to dispatched or en route with no unit on the incident and no reason, changing nothing", async () => {
    const incident = await newIncident();
    const severityBefore = (await detail(incident.id)).severity;
    const severity = severityBefore === "moderate" ? "critical" : "moderate";
    for (const status of ["dispatched", "enroute"]) {
      // A correction in the same request is rolled back with the refused move.
      const refused = await patch(key, incident.id, { status, severity });
      expect(refused.status).toBe(409);
      const body = await refused.json();
      expect(body.error_code).toBe("DISPATCH_WITHOUT_UNIT");
      expect(body.message).toMatch(/No unit is on this incident: send one .*or give dispatch_reason/);
    }
    const after = await detail(incident.id);
    expect(after.status).toBe("active");
    expect(after.severity).toBe(severityBefore);
    expect(await callStatuses(incident.calls)).toEqual(["active", "active"]);
    expect(after.status_change).toBeNull();
    expect(await audits(incident.id)).toEqual([]);
  });

  it("takes a reason, keeps it with the move and shows it in the intervals report", async () => {
    const incident = await newIncident();
    const moved = await patch(key, incident.id, { status: "dispatched", dispatch_reason: "Engine 5 sent by radio, not on the roster" });
    expect(moved.status).toBe(200);
    const after = incidentDetailSchema.parse(await moved.json());
    expect(after.status).toBe("dispatched");
    expect(after.status_change).toMatchObject({ from_status: "active", status: "dispatched", dispatch_reason: "Engine 5 sent by radio, not on the roster", changed_by_name: "API_KEY" });
    expect(await callStatuses(incident.calls)).toEqual(["dispatched", "dispatched"]);
    const report = await (await intervalsRoute(request(key, "/api/reports/intervals?calls=real&from=2026-01-01&to=2026-12-31", "GET"), undefined)).json();
    const listed = report.dispatched_without_unit.find((entry: { incident_id: string }) => entry.incident_id === incident.id);
    expect(listed).toMatchObject({ status: "dispatched", by: "API_KEY", reason: "Engine 5 sent by radio, not on the roster" });
    // Dispatched, it moves on to en route without being asked again.
    expect((await patch(key, incident.id, { status: "enroute" })).status).toBe(200);
  });

  it("needs no reason once a unit is on the incident, and keeps none given then", async () => {
    const incident = await newIncident();
    const unit = await newUnit();
    expect((await assignRoute(request(key, `/api/incidents/${incident.id}/units`, "POST", { unit_ids: [unit.id] }), context(incident.id))).status).toBe(201);
    const moved = await patch(key, incident.id, { status: "enroute", dispatch_reason: "not needed" });
    expect(moved.status).toBe(200);
    expect(incidentDetailSchema.parse(await moved.json()).status_change).toMatchObject({ status: "enroute", dispatch_reason: null });
    expect((await detail(incident.id)).units_sent).toEqual({ open: 1, cleared: 0 });
  });

  it("refuses a malformed or misplaced reason with 400", async () => {
    const incident = await newIncident();
    for (const body of [{ status: "dispatched", dispatch_reason: "  " }, { status: "dispatched", dispatch_reason: "x".repeat(501) }, { severity: "high", dispatch_reason: "radio" }]) {
      const refused = await patch(key, incident.id, body);
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toMatch(/dispatch_reason/);
    }
    expect((await detail(incident.id)).status).toBe("active");
  });
});

describe("a close says how it ended", () => {
  it("refuses resolved or failed without a disposition, and keeps and shows one given", async () => {
    const incident = await newIncident();
    for (const status of ["resolved", "failed"]) {
      const refused = await patch(key, incident.id, { status });
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toMatch(/needs a disposition: one of handled, transported/);
    }
    const unknown = await patch(key, incident.id, { status: "resolved", disposition: "vanished" });
    expect(unknown.status).toBe(400);
    expect(await callStatuses(incident.calls)).toEqual(["active", "active"]);
    const closed = await patch(key, incident.id, { status: "resolved", disposition: "false_alarm" });
    expect(closed.status).toBe(200);
    expect((await detail(incident.id)).status_change).toMatchObject({ status: "resolved", disposition: "false_alarm" });
    expect(await callStatuses(incident.calls)).toEqual(["resolved", "resolved"]);
  });

  it("closes with the clearing report's disposition when the last unit clears, else units_cleared", async () => {
    for (const disposition of ["transported", undefined]) {
      const incident = await newIncident();
      const unit = await newUnit({ type: "ambulance" });
      await assignRoute(request(key, `/api/incidents/${incident.id}/units`, "POST", { unit_ids: [unit.id] }), context(incident.id));
      const cleared = await stateRoute(request(key, `/api/units/${unit.id}/state`, "POST", { state: "available", ...(disposition ? { disposition } : {}) }), context(unit.id));
      expect(cleared.status).toBe(200);
      const after = await detail(incident.id);
      expect(after.status).toBe("resolved");
      expect(after.status_change?.disposition).toBe(disposition ?? "units_cleared");
      expect(after.units_sent).toEqual({ open: 0, cleared: 1 });
    }
  });
});

describe("undo", () => {
  it("reverts exactly the move: the incident, its calls and its dispatch time, audited; once", async () => {
    const dispatcher = await signedIn("dispatcher", `Undo ${runId}`);
    const person = { cookie: dispatcher.cookie };
    const incident = await newIncident();
    const dispatched = incidentDetailSchema.parse(await (await patch(person, incident.id, { status: "dispatched", dispatch_reason: "radio" })).json());
    const resolved = incidentDetailSchema.parse(await (await patch(person, incident.id, { status: "resolved", disposition: "handled" })).json());
    expect(resolved.status).toBe("resolved");

    const undone = await undo(person, incident.id, resolved.status_change!.id);
    expect(undone.status).toBe(200);
    const after = incidentDetailSchema.parse(await undone.json());
    expect(after.status).toBe("dispatched");
    expect(after.status_change).toMatchObject({ from_status: "resolved", status: "dispatched", undoes: resolved.status_change!.id, changed_by_name: `Undo ${runId}` });
    expect(await callStatuses(incident.calls)).toEqual(["dispatched", "dispatched"]);
    const history = await (await getDb()).callStatusChange.findMany({ where: { callId: incident.calls[0] }, orderBy: { id: "asc" } });
    expect(history.slice(-1)[0]).toMatchObject({ fromStatus: "resolved", status: "dispatched", changedByName: `Undo ${runId}` });
    expect(await audits(incident.id)).toContain("incident.status_undone");

    // An undo is not undone, nor is a move undone twice; the earlier move is no longer the latest.
    for (const changeId of [after.status_change!.id, resolved.status_change!.id, dispatched.status_change!.id]) {
      const again = await undo(person, incident.id, changeId);
      expect(again.status).toBe(409);
      expect((await again.json()).error_code).toBe("UNDO_REFUSED");
    }
    expect((await detail(incident.id)).status).toBe("dispatched");
  });

  it("puts back the dispatch time a first dispatch set", async () => {
    const incident = await newIncident();
    const moved = incidentDetailSchema.parse(await (await patch(key, incident.id, { status: "dispatched", dispatch_reason: "radio" })).json());
    expect((await (await getDb()).incident.findUniqueOrThrow({ where: { id: incident.id } })).dispatchedAt).not.toBeNull();
    expect((await undo(key, incident.id, moved.status_change!.id)).status).toBe(200);
    const row = await (await getDb()).incident.findUniqueOrThrow({ where: { id: incident.id } });
    expect(row).toMatchObject({ status: "active", dispatchedAt: null });
    expect(await callStatuses(incident.calls)).toEqual(["active", "active"]);
  });

  it("refuses, saying why and changing nothing, another's move, an old one, and one overtaken by a unit or a call", async () => {
    const db = await getDb();
    const other = await signedIn("dispatcher", `Other ${runId}`);
    const refusedWith = async (credentials: Credentials, id: string, changeId: string, why: RegExp) => {
      const response = await undo(credentials, id, changeId);
      expect(response.status).toBe(409);
      const body = await response.json();
      expect(body.error_code).toBe("UNDO_REFUSED");
      expect(body.message).toMatch(why);
      expect(body.message).toMatch(/nothing was undone$/);
    };

    const byKey = await newIncident();
    const moved = incidentDetailSchema.parse(await (await patch(key, byKey.id, { status: "dispatched", dispatch_reason: "radio" })).json());
    await refusedWith({ cookie: other.cookie }, byKey.id, moved.status_change!.id, /Only who made a move may undo it/);

    await db.$executeRaw`UPDATE incident_status_changes SET changed_at = changed_at - interval '2 minutes' WHERE id = ${moved.status_change!.id}`;
    await refusedWith(key, byKey.id, moved.status_change!.id, /within 60 s/);

    const withUnit = await newIncident();
    const unitMove = incidentDetailSchema.parse(await (await patch(key, withUnit.id, { status: "dispatched", dispatch_reason: "radio" })).json());
    const unit = await newUnit();
    await assignRoute(request(key, `/api/incidents/${withUnit.id}/units`, "POST", { unit_ids: [unit.id] }), context(withUnit.id));
    await refusedWith(key, withUnit.id, unitMove.status_change!.id, /A unit was sent to it or cleared from it since/);

    const withCall = await newIncident();
    const callMove = incidentDetailSchema.parse(await (await patch(key, withCall.id, { status: "dispatched", dispatch_reason: "radio" })).json());
    await db.$executeRaw`INSERT INTO call_status_changes (call_id, from_status, status, changed_at, changed_by) VALUES (${withCall.calls[0]}, 'dispatched', 'enroute', clock_timestamp(), 'api')`;
    await refusedWith(key, withCall.id, callMove.status_change!.id, /One of its calls has moved since/);

    expect((await detail(byKey.id)).status).toBe("dispatched");
    expect((await detail(withCall.id)).status).toBe("dispatched");
  });
});

describe("a unit that cannot be sent says why in words", () => {
  it("names the call sign and what it is doing, never an id", async () => {
    const busyAt = await newIncident();
    const incident = await newIncident();
    const unit = await newUnit();
    await assignRoute(request(key, `/api/incidents/${busyAt.id}/units`, "POST", { unit_ids: [unit.id] }), context(busyAt.id));
    await stateRoute(request(key, `/api/units/${unit.id}/state`, "POST", { state: "en_route" }), context(unit.id));
    const where = await (await getDb()).incident.findUniqueOrThrow({ where: { id: busyAt.id } });
    const refused = await assignRoute(request(key, `/api/incidents/${incident.id}/units`, "POST", { unit_ids: [unit.id] }), context(incident.id));
    expect(refused.status).toBe(409);
    const body = await refused.json();
    const words = `${unit.call_sign} is en route to a ${where.emergencyType.replaceAll("_", " ")} at ${where.locationMatched ?? where.location}`;
    expect(body.message).toContain(words);
    expect(body.units[0].reason).toBe(words.slice(`${unit.call_sign} is `.length));
    expect(body.message).not.toContain(busyAt.id);

    const closed = await newIncident();
    await patch(key, closed.id, { status: "failed", disposition: "not_located" });
    const toClosed = await assignRoute(request(key, `/api/incidents/${closed.id}/units`, "POST", { unit_ids: [unit.id] }), context(closed.id));
    expect(toClosed.status).toBe(409);
    expect((await toClosed.json()).message).toBe("This incident is failed: no unit is sent to a closed incident");
  });

  it("a real unit refused by a training incident is named with what it is doing", async () => {
    const db = await getDb();
    const [fixture] = makeCalls(40, ++seed).filter((call) => call.simulation);
    await insertCalls(db, [{ ...fixture, status: "active" }]);
    const training = (await db.call.findUniqueOrThrow({ where: { id: fixture.id } })).incidentId;
    const busyAt = await newIncident();
    const unit = await newUnit();
    await assignRoute(request(key, `/api/incidents/${busyAt.id}/units`, "POST", { unit_ids: [unit.id] }), context(busyAt.id));
    const refused = await assignRoute(request(key, `/api/incidents/${training}/units`, "POST", { unit_ids: [unit.id], confirm: true }), context(training));
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body.error_code).toBe("TRAINING_MIX");
    expect(body.message).toMatch(new RegExp(`^${unit.call_sign} is a real unit, dispatched to a .+: a training incident takes only`));
    expect(body.message).not.toContain(busyAt.id);
  });
});
