import { afterAll, describe, expect, it } from "vitest";
import { PATCH as incidentRoute } from "@/app/api/incidents/[id]/route";
import { POST as assignRoute } from "@/app/api/incidents/[id]/units/route";
import { POST as createUnitRoute } from "@/app/api/units/route";
import { POST as acknowledgeAllRoute } from "@/app/api/live/alerts/acknowledge/route";
import { GET as alertsRoute } from "@/app/api/live/alerts/route";
import { getDb } from "@/lib/db/client";
import { ALERTS_LISTED, alertsSchema } from "@/lib/board/schema";
import { closeRedis } from "@/lib/redis";
import { apiRequest } from "../support/auth";
import { type CallInput, insertCalls, makeCalls } from "../support/calls";
import { signedIn } from "../support/people";
import { withMoveDetails } from "../support/incident-moves";

/**
 * Alerts end with the work (docs/dashboard.md, "Alerts"): dispatching an incident acknowledges its
 * new calls, and every alert of one kind, real or training, is acknowledged at once.
 */
afterAll(closeRedis);

let seed = 5200;
function criticalCall(fields: Partial<CallInput> = {}): CallInput {
  const [call] = makeCalls(10, ++seed).filter((candidate) => !candidate.simulation);
  return { ...call, status: "active", severity: "critical", exerciseId: null, occurredAt: new Date(), ...fields };
}

const readAlerts = async () => alertsSchema.parse(await (await alertsRoute(apiRequest("http://localhost/api/live/alerts"))).json());
const newAlerts = async () => (await readAlerts()).new.incidents.map((incident) => incident.id);
const incidentOf = async (call: CallInput) => (await (await getDb()).call.findUniqueOrThrow({ where: { id: call.id } })).incidentId;
const json = (body: unknown, cookie?: string) => ({
  method: "POST" as const,
  headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});

describe("alerts end with the work", () => {
  it("dispatching an incident acknowledges its alert, audited with the work; a new caller alerts again", async () => {
    const db = await getDb();
    const call = criticalCall();
    await insertCalls(db, [call]);
    const id = await incidentOf(call);
    expect(await newAlerts()).toContain(id);

    const response = await incidentRoute(
      apiRequest(`http://localhost/api/incidents/${id}`, { ...json(withMoveDetails("dispatched")), method: "PATCH" }),
      { params: Promise.resolve({ id }) },
    );
    expect(response.status).toBe(200);
    expect(await newAlerts()).not.toContain(id);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "incident.acknowledged", targetId: id } });
    expect(audit.after).toMatchObject({ with: "dispatched" });

    const caller = criticalCall();
    await insertCalls(db, [caller]);
    await db.$executeRaw`UPDATE calls SET incident_id = ${id} WHERE id = ${caller.id}`;
    expect(await newAlerts()).toContain(id);
  });

  it("sending a unit acknowledges the incident's alert, and again for a new caller once it is being worked, audited with the work", async () => {
    const db = await getDb();
    const call = criticalCall();
    await insertCalls(db, [call]);
    const id = await incidentOf(call);
    expect(await newAlerts()).toContain(id);
    const sendUnit = async () => {
      const created = await createUnitRoute(
        apiRequest("http://localhost/api/units", json({ call_sign: `Ack ${++seed}`, type: "engine", station: "Station 1", station_latitude: 25.77, station_longitude: -80.19 })),
        undefined,
      );
      expect(created.status).toBe(201);
      const unit = (await created.json()) as { id: string };
      const sent = await assignRoute(apiRequest(`http://localhost/api/incidents/${id}/units`, json({ unit_ids: [unit.id] })), { params: Promise.resolve({ id }) });
      expect(sent.status).toBe(201);
    };
    const acknowledgedWith = async () =>
      (await db.auditEvent.findMany({ where: { action: "incident.acknowledged", targetId: id }, orderBy: { at: "asc" } })).map((row) => (row.after as { with?: string }).with);

    // The first unit dispatches the incident: its alert ends with the dispatch.
    await sendUnit();
    expect(await newAlerts()).not.toContain(id);
    expect(await acknowledgedWith()).toEqual(["dispatched"]);

    // A new caller about it alerts again; the next unit sent ends that alert too.
    const caller = criticalCall();
    await insertCalls(db, [caller]);
    await db.$executeRaw`UPDATE calls SET incident_id = ${id} WHERE id = ${caller.id}`;
    expect(await newAlerts()).toContain(id);
    await sendUnit();
    expect(await newAlerts()).not.toContain(id);
    expect(await acknowledgedWith()).toEqual(["dispatched", "unit_sent"]);
  });

  it("lists real alerts before training ones, each kind's first ones, however many training ones there are", async () => {
    const db = await getDb();
    // The real call is received first: by time alone, the training ones would all come before it.
    const older = criticalCall();
    await insertCalls(db, [older]);
    const olderId = await incidentOf(older);
    const training = Array.from({ length: ALERTS_LISTED + 2 }, () => criticalCall({ simulation: true, tableName: "sim" }));
    await insertCalls(db, training);
    const alerts = (await readAlerts()).new;
    const kinds = alerts.incidents.map((incident) => incident.training);
    expect(kinds).toEqual([...kinds].sort((a, b) => Number(a) - Number(b)));
    expect(alerts.incidents.filter((incident) => !incident.training).map((incident) => incident.id)).toContain(olderId);
    expect(alerts.incidents.filter((incident) => incident.training)).toHaveLength(ALERTS_LISTED);
    expect(alerts.training_total).toBeGreaterThanOrEqual(training.length);
    expect(alerts.total - alerts.training_total).toBe(alerts.incidents.filter((incident) => !incident.training).length);
  });

  it("acknowledges every alert of one kind at once: real ones leave training ones standing, and a trainer may not take real ones", async () => {
    const db = await getDb();
    const real = [criticalCall(), criticalCall()];
    const training = criticalCall({ simulation: true, tableName: "sim" });
    await insertCalls(db, [...real, training]);
    const realIds = await Promise.all(real.map(incidentOf));
    const trainingId = await incidentOf(training);
    expect(await newAlerts()).toEqual(expect.arrayContaining([...realIds, trainingId]));

    const trainer = await signedIn("trainer");
    const refused = await acknowledgeAllRoute(apiRequest("http://localhost/api/live/alerts/acknowledge", json({ kind: "real" }, trainer.cookie)));
    expect(refused.status).toBe(403);
    expect(await newAlerts()).toEqual(expect.arrayContaining(realIds));
    expect((await acknowledgeAllRoute(apiRequest("http://localhost/api/live/alerts/acknowledge", json({ kind: "everything" })))).status).toBe(400);

    const response = await acknowledgeAllRoute(apiRequest("http://localhost/api/live/alerts/acknowledge", json({ kind: "real" })));
    expect(response.status).toBe(200);
    expect((await response.json()).acknowledged).toBeGreaterThanOrEqual(2);
    const standing = await newAlerts();
    for (const id of realIds) expect(standing).not.toContain(id);
    expect(standing).toContain(trainingId);

    const byTrainer = await acknowledgeAllRoute(apiRequest("http://localhost/api/live/alerts/acknowledge", json({ kind: "training" }, trainer.cookie)));
    expect(byTrainer.status).toBe(200);
    expect(await newAlerts()).toEqual([]);
  });
});
