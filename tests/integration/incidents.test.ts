import { apiRequest } from "@/tests/support/auth";
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { GET as listCalls } from "@/app/api/calls/route";
import { GET as getIncident, PATCH as patchIncident } from "@/app/api/incidents/[id]/route";
import { POST as merge } from "@/app/api/incidents/[id]/merge/route";
import { POST as split } from "@/app/api/incidents/[id]/split/route";
import { GET as listIncidents } from "@/app/api/incidents/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { groupNow } from "@/lib/incidents/grouper";
import { groupPendingCalls } from "@/lib/incidents/group-waiting";
import { incidentDetailSchema, incidentListSchema } from "@/lib/incidents/schema";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { makeCalls } from "../support/calls";
import { secondInstance } from "../support/exercise-clock";
import { postSimulate } from "../support/simulate-request";
import { webhookRequest } from "../support/webhook-request";
import { withMoveDetails } from "../support/incident-moves";

const originalSecret = process.env.VOICEAGENT_WEBHOOK_SECRET;
beforeAll(() => {
  delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  resetConfigForTests();
});
afterAll(() => {
  if (originalSecret !== undefined) process.env.VOICEAGENT_WEBHOOK_SECRET = originalSecret;
  resetConfigForTests();
});

let counter = 0;
const runId = randomInt(1_000_000);
const START = 1_767_225_600;

/** A webhook call about a place, with coordinates when given (as the agent collects them). */
function callEvent(
  options: { lat?: number; lon?: number; location?: string; type?: string; at?: number } = {},
): { id: string; event: ReturnType<typeof specCallEvent> } {
  const id = `conv_incident_${runId}_${++counter}`;
  const event = specCallEvent(id, { location: options.location ?? `${runId} Nowhere Rd`, eventTimestamp: options.at ?? START });
  const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
  if (options.type) results.emergency_type = { value: options.type, rationale: "test" };
  if (options.lat !== undefined && options.lon !== undefined) {
    results.latitude = { value: options.lat, rationale: "test" };
    results.longitude = { value: options.lon, rationale: "test" };
  }
  return { id, event };
}

async function post(event: unknown): Promise<void> {
  const response = await webhook(webhookRequest(event), undefined);
  expect(response.status).toBe(200);
}

const context = (id: string) => ({ params: Promise.resolve({ id }) });
const jsonRequest = (url: string, method: string, body: unknown) =>
  apiRequest(url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function incidentOf(conversationId: string): Promise<string> {
  const call = await (await getDb()).call.findUniqueOrThrow({ where: { conversationId } });
  return call.incidentId;
}

async function detail(id: string) {
  const response = await getIncident(apiRequest(`http://localhost/api/incidents/${id}`), context(id));
  expect(response.status).toBe(200);
  return incidentDetailSchema.parse(await response.json());
}

/** A point of its own for each test, far from the others (a random spot in the Pacific). */
function place() {
  return { lat: -40 + randomInt(1_000_000) / 100_000, lon: -150 + randomInt(1_000_000) / 100_000 };
}

/**
 * A call as a failed geocoding leaves it: waiting for the grouper, alone in an incident of its own;
 * its point the platform's, so grouped on distance (docs/incidents.md, "Grouping").
 */
async function storeWaitingCall(name: string, { emergencyType, lat, lon, at }: { emergencyType: string; lat: number; lon: number; at: number }) {
  const [fixture] = makeCalls(1, runId);
  return (await getDb()).call.create({
    data: {
      ...fixture, simulatedRecord: undefined, locationCivic: undefined, callId: null, conversationId: `conv_${name}_${runId}`, simulation: false, exerciseId: null,
      status: "active", emergencyType, latitude: lat, longitude: lon, occurredAt: new Date(at * 1000), groupingPending: true,
      locationSource: "platform", locationPrecision: "address_point",
      // Each its own caller: the same callback number within the window joins its incident.
      callerPhone: null,
    },
  });
}

describe("automatic grouping", () => {
  it("50 webhook calls about one event, posted in parallel, end in exactly one incident", async () => {
    const { lat, lon } = place();
    // Within about 70 m of the event and 10 minutes of each other, each its own caller.
    const calls = Array.from({ length: 50 }, (_, index) =>
      callEvent({ lat: lat + ((index % 7) - 3) * 0.0002, lon: lon + ((index % 5) - 2) * 0.0002, at: START + index * 12 }),
    );
    // Each call is placed in its incident by the statement that stores it: nothing waits for a grouper.
    await Promise.all(calls.map(({ event }) => post(event)));
    const waiting = await (await getDb()).call.count({ where: { conversationId: { in: calls.map(({ id }) => id) }, groupingPending: true } });
    expect(waiting).toBe(0);

    const incidents = new Set(await Promise.all(calls.map(({ id }) => incidentOf(id))));
    expect(incidents.size).toBe(1);
    const incident = await detail([...incidents][0]);
    expect(incident.call_count).toBe(50);
    expect(incident.calls).toHaveLength(50);
    expect(incident.severity).toBe("critical");
    expect(incident.first_call_at).toBe(new Date(START * 1000).toISOString());
    expect(incident.last_call_at).toBe(new Date((START + 49 * 12) * 1000).toISOString());
    expect(incident.calls.map((call) => call.timestamp)).toEqual([...incident.calls.map((call) => call.timestamp)].sort());
  });

  it("opens separate incidents beyond D, beyond T, for another type, and groups text-only calls by normalised location", async () => {
    const { lat, lon } = place();
    const first = callEvent({ lat, lon });
    const far = callEvent({ lat: lat + 0.01, lon }); // about 1.1 km away
    const later = callEvent({ lat, lon, at: START + 2 * 3600 });
    const otherType = callEvent({ lat, lon, type: "Gas Leak" });
    const near = callEvent({ lat: lat + 0.001, lon }); // about 110 m away
    for (const { event } of [first, far, later, otherType, near]) await post(event);
    await groupNow();
    const ids = await Promise.all([first, far, later, otherType, near].map(({ id }) => incidentOf(id)));
    expect(new Set(ids.slice(0, 4)).size).toBe(4);
    expect(ids[4]).toBe(ids[0]);

    const street = `${runId} Elm Street, Springfield`;
    const texts = [street, `  ${street.toUpperCase()} `, street.replaceAll(" ", "  ").replace(",", ";")].map((location) =>
      callEvent({ location }),
    );
    await Promise.all(texts.map(({ event }) => post(event)));
    await groupNow();
    expect(new Set(await Promise.all(texts.map(({ id }) => incidentOf(id)))).size).toBe(1);
  });

  it("groups calls on either side of a 0.01 degree line of latitude or longitude (the lookup's index bands)", async () => {
    const { lat, lon } = place();
    // place() gives five decimals: a point 2 m south and west of a band's edge, then points across it.
    const edgeLat = Math.ceil(lat * 100) / 100;
    const edgeLon = Math.ceil(lon * 100) / 100;
    const calls = [
      callEvent({ lat: edgeLat - 0.00002, lon: edgeLon - 0.00002 }),
      callEvent({ lat: edgeLat + 0.00002, lon: edgeLon - 0.00002, at: START + 60 }),
      callEvent({ lat: edgeLat - 0.00002, lon: edgeLon + 0.00002, at: START + 120 }),
      callEvent({ lat: edgeLat + 0.00002, lon: edgeLon + 0.00002, at: START + 180 }),
    ];
    for (const { event } of calls) await post(event);
    expect(new Set(await Promise.all(calls.map(({ id }) => incidentOf(id)))).size).toBe(1);
  });

  it("never groups a voice-agent call into a simulated incident, however close", async () => {
    const table = `incident_kinds_${runId}`;
    const { status } = await postSimulate({ scenario: "earthquake_sf", num_calls: 5, seed: runId, table_name: table });
    expect(status).toBe(200);
    await groupNow();
    const simulated = await (await getDb()).call.findFirstOrThrow({ where: { tableName: table } });
    const at = Math.floor(simulated.occurredAt.getTime() / 1000);
    const spot = { lat: simulated.latitude!, lon: simulated.longitude!, type: simulated.emergencyType, at };
    const real = callEvent(spot);
    const secondReal = callEvent({ ...spot, at: at + 60 });
    await post(real.event);
    await post(secondReal.event);
    await groupNow();

    const realIncident = await incidentOf(real.id);
    expect(realIncident).not.toBe(simulated.incidentId);
    // The same spot does group: the second real caller joins the first one's incident.
    expect(await incidentOf(secondReal.id)).toBe(realIncident);
    expect((await detail(simulated.incidentId)).calls.every((call) => call.simulation)).toBe(true);
  });

  it("stores a call at once in an incident of its own, which the grouper then folds into the event's", async () => {
    const { lat, lon } = place();
    const first = callEvent({ lat, lon });
    await post(first.event);
    await groupNow();
    const db = await getDb();
    const { emergencyType } = await db.call.findUniqueOrThrow({ where: { conversationId: first.id } });
    // A call as a writer leaves it: waiting, alone in an incident of its own (nothing woke a grouper).
    const waiting = await storeWaitingCall("waiting", { emergencyType, lat: lat + 0.0005, lon, at: START + 60 });
    expect(await detail(waiting.incidentId)).toMatchObject({ call_count: 1, emergency_type: emergencyType });
    await groupNow();
    const grouped = await db.call.findUniqueOrThrow({ where: { id: waiting.id } });
    expect(grouped).toMatchObject({ incidentId: await incidentOf(first.id), groupingPending: false });
    expect(grouped.groupedAt).toBeInstanceOf(Date);
    // Its own incident, left empty, is gone; the event's now counts both callers.
    expect(await db.incident.findUnique({ where: { id: waiting.incidentId } })).toBeNull();
    expect((await detail(grouped.incidentId)).call_count).toBe(2);
  });

  it("no call joins an incident whose calls all wait for the grouper; once its call is placed where it is, later calls do", async () => {
    const db = await getDb();
    const type = "structure_fire";
    const waitingOf = async (incidentId: string) => (await db.incident.findUniqueOrThrow({ where: { id: incidentId } })).waiting;
    // No grouper run may come between the waiting call and the webhook's: a wake-up that an
    // earlier test's writes left runs now (groupNow does not wait for it to gather). A webhook
    // call with coordinates wakes no grouper.
    await groupNow();

    // A waiting call and, before the grouper runs, a webhook call beside it: the webhook's call
    // opens its own incident; the grouper then brings the waiting call into it.
    const p = place();
    const early = await storeWaitingCall("waiting_early", { emergencyType: type, lat: p.lat, lon: p.lon, at: START });
    expect(await waitingOf(early.incidentId)).toBe(true);
    const beside = callEvent({ lat: p.lat + 0.0005, lon: p.lon, type });
    await post(beside.event);
    expect(await incidentOf(beside.id)).not.toBe(early.incidentId);
    await groupNow();
    expect(await incidentOf(`conv_waiting_early_${runId}`)).toBe(await incidentOf(beside.id));

    // A waiting call alone: the grouper leaves it in its incident, which stops waiting and is
    // joined by the next caller.
    const q = place();
    const alone = await storeWaitingCall("waiting_alone", { emergencyType: type, lat: q.lat, lon: q.lon, at: START });
    await groupNow();
    expect(await incidentOf(`conv_waiting_alone_${runId}`)).toBe(alone.incidentId);
    expect(await waitingOf(alone.incidentId)).toBe(false);
    const next = callEvent({ lat: q.lat + 0.0005, lon: q.lon, type });
    await post(next.event);
    expect(await incidentOf(next.id)).toBe(alone.incidentId);
    expect((await detail(alone.incidentId)).call_count).toBe(2);
  });

  it.runIf(inject("testDatabase").kind === "postgresql")("groupers of two instances working at once still make one incident of 50 waiting calls", async () => {
    const { lat, lon } = place();
    const db = await getDb();
    const event = `conv_two_groupers_${runId}`;
    await db.call.createMany({
      data: makeCalls(50, runId + 1).map((fixture, index) => ({
        ...fixture, simulatedRecord: undefined, locationCivic: undefined, callId: null, conversationId: `${event}_${index}`, simulation: false, exerciseId: null,
        status: "active", emergencyType: "structure_fire", latitude: lat + (index % 5) * 0.0002, longitude: lon,
        occurredAt: new Date((START + index * 10) * 1000), groupingPending: true,
        locationSource: "platform", locationPrecision: "address_point",
      })),
    });
    // Small batches from two clients (two instances' groupers), racing until nothing waits: groupers
    // that split the waiting calls between them (FOR UPDATE SKIP LOCKED, say) end with two incidents.
    const other = await secondInstance("incident-grouper-other");
    const drain = async (client: typeof db) => {
      while ((await groupPendingCalls(client, 5)) > 0);
    };
    try {
      await Promise.all([drain(db), drain(other.db)]);
    } finally {
      await other.close();
    }
    const rows = await db.call.findMany({ where: { conversationId: { startsWith: event } }, select: { incidentId: true } });
    expect(new Set(rows.map((row) => row.incidentId)).size).toBe(1);
    expect((await detail(rows[0].incidentId)).call_count).toBe(50);
  });

  it("with INCIDENT_GROUPING_ENABLED=false stores every call in an incident of its own", async () => {
    process.env.INCIDENT_GROUPING_ENABLED = "false";
    resetConfigForTests();
    try {
      const { lat, lon } = place();
      const calls = [callEvent({ lat, lon }), callEvent({ lat, lon, at: START + 30 })];
      for (const { event } of calls) await post(event);
      await groupNow();
      const ids = await Promise.all(calls.map(({ id }) => incidentOf(id)));
      expect(new Set(ids).size).toBe(2);
    } finally {
      delete process.env.INCIDENT_GROUPING_ENABLED;
      resetConfigForTests();
    }
  });

  it("a redelivered call keeps its incident and leaves no empty incident behind", async () => {
    const { lat, lon } = place();
    const call = callEvent({ lat, lon });
    const text = callEvent({ location: `${runId} Redelivery Lane` });
    for (const { event } of [call, text, call, text, call]) await post(event);
    const incidents = await Promise.all([call, text].map(({ id }) => incidentOf(id)));
    expect(await Promise.all(incidents.map(async (id) => (await detail(id)).call_count))).toEqual([1, 1]);
    const [{ empty }] = await (await getDb()).$queryRaw<{ empty: number }[]>`
      SELECT count(*)::int AS empty FROM incidents i WHERE NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id)`;
    expect(empty).toBe(0);
  });

  it("gives every call of /api/calls its incident_id", async () => {
    const response = await listCalls(apiRequest("http://localhost/api/calls?limit=20"));
    const { calls } = (await response.json()) as { calls: { incident_id: string }[] };
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => typeof call.incident_id === "string" && call.incident_id !== "")).toBe(true);
  });
});

describe("dispatcher actions", () => {
  it("merge then split restores the original grouping, with exact counts", async () => {
    const a = place();
    const b = place();
    const calls = [callEvent(a), callEvent({ lat: a.lat + 0.0005, lon: a.lon }), callEvent(b)];
    for (const { event } of calls) await post(event);
    await groupNow();
    const [a1, a2, b1] = await Promise.all(calls.map(({ id }) => incidentOf(id)));
    expect(a2).toBe(a1);
    expect(b1).not.toBe(a1);

    const merged = await merge(jsonRequest(`http://localhost/api/incidents/${a1}/merge`, "POST", { other_id: b1 }), context(a1));
    expect(merged.status).toBe(200);
    expect(incidentDetailSchema.parse(await merged.json()).call_count).toBe(3);
    expect(await (await getDb()).incident.findUnique({ where: { id: b1 } })).toBeNull();

    const response = await split(
      jsonRequest(`http://localhost/api/incidents/${a1}/split`, "POST", { call_id: calls[2].id }),
      context(a1),
    );
    expect(response.status).toBe(200);
    const separated = incidentDetailSchema.parse(await response.json());
    expect(separated.calls.map((call) => call.conversation_id)).toEqual([calls[2].id]);
    expect(separated.call_count).toBe(1);
    expect(separated.latitude).toBeCloseTo(b.lat, 9);
    const original = await detail(a1);
    expect(original.calls.map((call) => call.conversation_id).sort()).toEqual([calls[0].id, calls[1].id].sort());
    expect(original.call_count).toBe(2);
  });

  it("refuses a merge into itself, an unknown incident, and splitting an incident's only call", async () => {
    const { id, event } = callEvent(place());
    await post(event);
    const incident = await incidentOf(id);
    const self = await merge(jsonRequest("http://localhost/x", "POST", { other_id: incident }), context(incident));
    expect(self.status).toBe(400);
    const unknown = await merge(jsonRequest("http://localhost/x", "POST", { other_id: "nope" }), context(incident));
    expect(unknown.status).toBe(404);
    const only = await split(jsonRequest("http://localhost/x", "POST", { call_id: id }), context(incident));
    expect(only.status).toBe(400);
    expect((await detail(incident)).call_count).toBe(1);
  });

  it("an incident's status change is in every affected call's history, with who changed it", async () => {
    const { lat, lon } = place();
    const calls = [callEvent({ lat, lon }), callEvent({ lat, lon: lon + 0.0003 }), callEvent({ lat, lon: lon - 0.0003 })];
    for (const { event } of calls) await post(event);
    await groupNow();
    const incident = await incidentOf(calls[0].id);
    // One call already en route, one resolved: the incident's move to dispatched leaves both.
    for (const [index, status] of [[1, "enroute"], [2, "resolved"]] as const) {
      const id = calls[index].id;
      expect((await patchCall(jsonRequest(`http://localhost/api/calls/${id}`, "PATCH", { status }), context(id))).status).toBe(200);
    }
    const patch = (status: string) =>
      patchIncident(jsonRequest(`http://localhost/api/incidents/${incident}`, "PATCH", withMoveDetails(status)), context(incident));

    expect((await patch("dispatched")).status).toBe(200);
    const after = await patch("resolved");
    expect(after.status).toBe(200);
    expect(incidentDetailSchema.parse(await after.json()).calls.map((call) => call.status)).toEqual(["resolved", "resolved", "resolved"]);

    const db = await getDb();
    const historyOf = async (conversationId: string) =>
      (await db.call.findUniqueOrThrow({ where: { conversationId }, include: { history: { orderBy: { id: "asc" } } } }))
        .history.map(({ fromStatus, status, changedBy }) => ({ fromStatus, status, changedBy }));
    expect(await historyOf(calls[0].id)).toEqual([
      { fromStatus: null, status: "active", changedBy: "webhook" },
      { fromStatus: "active", status: "dispatched", changedBy: "key:API_KEY" },
      { fromStatus: "dispatched", status: "resolved", changedBy: "key:API_KEY" },
    ]);
    expect(await historyOf(calls[1].id)).toEqual([
      { fromStatus: null, status: "active", changedBy: "webhook" },
      { fromStatus: "active", status: "enroute", changedBy: "key:API_KEY" },
      { fromStatus: "enroute", status: "resolved", changedBy: "key:API_KEY" },
    ]);
    expect(await historyOf(calls[2].id)).toEqual([
      { fromStatus: null, status: "active", changedBy: "webhook" },
      { fromStatus: "active", status: "resolved", changedBy: "key:API_KEY" },
    ]);

    const final = await patch("dispatched");
    expect(final.status).toBe(409);
  });

  it("an incident closes when its last open call closes: resolved if any call was, else failed", async () => {
    const resolvedFirst = place();
    const twoCalls = [callEvent(resolvedFirst), callEvent({ ...resolvedFirst, lon: resolvedFirst.lon + 0.0003 })];
    const failing = place();
    const twoFailing = [callEvent(failing), callEvent({ ...failing, lon: failing.lon + 0.0003 })];
    for (const { event } of [...twoCalls, ...twoFailing]) await post(event);
    const setStatus = async (conversationId: string, status: string) => {
      const id = conversationId;
      expect((await patchCall(jsonRequest(`http://localhost/api/calls/${id}`, "PATCH", { status }), context(id))).status).toBe(200);
    };
    const statusOf = async (conversationId: string) => (await detail(await incidentOf(conversationId))).status;

    await setStatus(twoCalls[0].id, "resolved");
    // One call still open: the incident stays in the dispatcher's queue.
    expect(await statusOf(twoCalls[0].id)).toBe("active");
    await setStatus(twoCalls[1].id, "failed");
    expect(await statusOf(twoCalls[0].id)).toBe("resolved");

    await setStatus(twoFailing[0].id, "failed");
    await setStatus(twoFailing[1].id, "failed");
    expect(await statusOf(twoFailing[0].id)).toBe("failed");
  });

  it("lists incidents with filters and pagination", async () => {
    const response = await listIncidents(apiRequest("http://localhost/api/incidents?status=resolved&limit=1"));
    expect(response.status).toBe(200);
    const body = incidentListSchema.parse(await response.json());
    expect(body.incidents).toHaveLength(1);
    expect(body.incidents[0].status).toBe("resolved");
    expect(body.pagination).toMatchObject({ limit: 1, offset: 0 });
    expect(body.pagination.total).toBeGreaterThanOrEqual(1);
    const bad = await listIncidents(apiRequest("http://localhost/api/incidents?limit=0"));
    expect(bad.status).toBe(400);
  });
});
