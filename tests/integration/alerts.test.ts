import { apiRequest } from "@/tests/support/auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as changesRoute } from "@/app/api/calls/changes/route";
import { POST as acknowledgeRoute } from "@/app/api/incidents/[id]/acknowledge/route";
import { PATCH as incidentRoute } from "@/app/api/incidents/[id]/route";
import { GET as alertsRoute } from "@/app/api/live/alerts/route";
import { GET as boardRoute } from "@/app/api/live/board/route";
import { GET as incidentQueueRoute } from "@/app/api/live/incidents/route";
import { acknowledgementSchema } from "@/lib/acknowledgements/schema";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { EXERCISE_TABLE_NAME } from "@/lib/vocabulary";
import { type Alerts, alertsSchema, boardSchema, changePageSchema, incidentQueuePageSchema, type LiveIncident } from "@/lib/board/schema";
import { closeRedis } from "@/lib/redis";
import { type CallInput, insertCalls, makeCalls } from "../support/calls";
import { signedIn } from "../support/people";
import { withMoveDetails } from "../support/incident-moves";

/**
 * Alerts from the incidents themselves (docs/dashboard.md, "Alerts"), acknowledged by one
 * dispatcher for all, and the incident queue's keyset pages reaching every open incident by
 * section, sort and place.
 */

process.env.ALERT_REMIND_CRITICAL_MIN = "2";
process.env.ALERT_REMIND_HIGH_MIN = "5";
process.env.ALERT_REMIND_MODERATE_MIN = "15";
resetConfigForTests();

const OPEN = ["active", "dispatched", "enroute"];
const context = (id: string) => ({ params: Promise.resolve({ id }) });

async function get<T>(handler: (request: Request) => Promise<Response>, url: string, parse: (body: unknown) => T, cookie?: string): Promise<T> {
  const response = await handler(apiRequest(`http://localhost${url}`, cookie ? { headers: { cookie } } : {}));
  expect(response.status).toBe(200);
  return parse(await response.json());
}

const alerts = (query = "", cookie?: string): Promise<Alerts> => get(alertsRoute, `/api/live/alerts${query}`, (body) => alertsSchema.parse(body), cookie);

/** Every page of the incident queue under `query`, by its keyset cursor, and the totals each page gave. */
async function wholeQueue(query: string, limit = 17): Promise<{ rows: LiveIncident[]; totals: Set<number> }> {
  const rows: LiveIncident[] = [];
  const totals = new Set<number>();
  for (let after: string | null = ""; after !== null; ) {
    const cursor: string = after ? `&after=${encodeURIComponent(after)}` : "";
    const page = await get(incidentQueueRoute, `/api/live/incidents?limit=${limit}${query}${cursor}`, (body) => incidentQueuePageSchema.parse(body));
    rows.push(...page.incidents);
    totals.add(page.total);
    after = page.next;
  }
  return { rows, totals };
}

let seed = 900;
/** One more call as a voice agent's, `fields` over a fixture call's. */
function oneCall(fields: Partial<CallInput>): CallInput {
  const [call] = makeCalls(10, ++seed).filter((candidate) => !candidate.simulation);
  return { ...call, status: "active", exerciseId: null, ...fields };
}

async function incidentOf(callId: string): Promise<string> {
  return (await (await getDb()).call.findUniqueOrThrow({ where: { id: callId } })).incidentId;
}

afterAll(closeRedis);

describe("alerts and the incident queue", () => {
  const base = makeCalls(260, 41);
  let late: CallInput;
  let lateIncident: string;

  beforeAll(async () => {
    const db = await getDb();
    // Many open critical incidents whose first calls are older than the late one's: it ranks below any page.
    // Received now, made within the last hours (plausible times: the queue orders by them).
    const critical = base.map((call, index) => ({
      ...call,
      occurredAt: new Date(Date.now() - 3 * 3600_000 + index * 1000),
      ...(index % 2 === 0 ? { severity: "critical", status: "active" } : {}),
    }));
    await insertCalls(db, critical);
    // Every fixture incident acknowledged once: only what arrives afterwards is new.
    await db.$executeRaw`INSERT INTO incident_acknowledgements (incident_id, actor_ref, actor_name) SELECT id, 'key:API_KEY', 'API_KEY' FROM incidents`;
    late = oneCall({ severity: "critical", occurredAt: new Date(Date.now() - 1_000) });
    await insertCalls(db, [late]);
    lateIncident = await incidentOf(late.id);
  });

  it("alerts a new critical incident however far down the queue it ranks", async () => {
    const { rows } = await wholeQueue("");
    const rank = rows.findIndex((incident) => incident.id === lateIncident);
    // Below the dashboard's first page of 50 (the training incidents below it are ranked after every real one).
    expect(rank).toBeGreaterThan(50);
    const answer = await alerts();
    expect(answer.new.incidents.map((incident) => incident.id)).toEqual([lateIncident]);
    expect(answer.new).toMatchObject({ total: 1, incidents: [{ new_calls: 1, severity: "critical", latest_call: { conversation_id: late.conversationId } }] });
    // A moderate call is never a "new" alert.
    await insertCalls(await getDb(), [oneCall({ severity: "moderate", occurredAt: new Date() })]);
    expect((await alerts()).new.total).toBe(1);
  });

  it("an acknowledgement is audited, moves the feed, and clears the alert for another dispatcher until a new caller", async () => {
    const [first, second] = [await signedIn("dispatcher", "Ada Dispatcher"), await signedIn("dispatcher", "Ben Dispatcher")];
    const before = await get(boardRoute, "/api/live/board", (body) => boardSchema.parse(body), second.cookie);
    const response = await acknowledgeRoute(
      apiRequest(`http://localhost/api/incidents/${lateIncident}/acknowledge`, { method: "POST", headers: { cookie: first.cookie } }),
      context(lateIncident),
    );
    expect(response.status).toBe(201);
    const kept = acknowledgementSchema.parse(await response.json());
    expect(kept).toMatchObject({ incident_id: lateIncident, by: { kind: "user", id: first.user.id, name: "Ada Dispatcher" } });

    const [audit] = await (await getDb()).$queryRaw<{ actor_id: string; after: { acknowledgement_id: string } }[]>`
      SELECT actor_id, after FROM audit_events WHERE action = 'incident.acknowledged' AND target_id = ${lateIncident}`;
    expect(audit).toEqual({ actor_id: first.user.id, after: { acknowledgement_id: kept.id } });

    // The other dispatcher's picture: the feed carries it, the head moved, the alert is gone.
    const page = await get(changesRoute, `/api/calls/changes?after=${before.cursor}`, (body) => changePageSchema.parse(body), second.cookie);
    expect(page.changes).toEqual([{ change: page.cursor, acknowledgement: kept }]);
    const after = await get(boardRoute, "/api/live/board", (body) => boardSchema.parse(body), second.cookie);
    expect(after.cursor).toBe(page.cursor);
    expect((await alerts("", second.cookie)).new.total).toBe(0);

    // A new caller about it: new again, with one new call.
    const caller = oneCall({ severity: "high", occurredAt: new Date() });
    await insertCalls(await getDb(), [caller]);
    await (await getDb()).$executeRaw`UPDATE calls SET incident_id = ${lateIncident} WHERE id = ${caller.id}`;
    expect((await alerts()).new).toMatchObject({ total: 1, incidents: [{ id: lateIncident, new_calls: 1, call_count: 2 }] });
  });

  it("an unknown incident is 404 and keeps nothing", async () => {
    const response = await acknowledgeRoute(apiRequest("http://localhost/api/incidents/nope/acknowledge", { method: "POST" }), context("nope"));
    expect(response.status).toBe(404);
    const [{ n }] = await (await getDb()).$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM incident_acknowledgements WHERE incident_id = 'nope'`;
    expect(n).toBe(0);
  });

  it("reminds of every incident waiting undispatched past its severity's threshold since its first call or its latest acknowledgement", async () => {
    const db = await getDb();
    const stale = oneCall({ severity: "high", occurredAt: new Date(Date.now() - 6 * 60_000) });
    const fresh = oneCall({ severity: "moderate", occurredAt: new Date(Date.now() - 6 * 60_000) });
    const dispatched = oneCall({ severity: "critical", status: "dispatched", occurredAt: new Date(Date.now() - 60 * 60_000) });
    await insertCalls(db, [stale, fresh, dispatched]);
    await db.$executeRaw`UPDATE incidents SET status = 'dispatched' WHERE id = ${await incidentOf(dispatched.id)}`;
    const staleId = await incidentOf(stale.id);
    // The fixture's waiting incidents were acknowledged moments ago: only the stale high one is due,
    // not the moderate one of the same age (15 min), nor the dispatched critical one.
    const answer = await alerts();
    expect(answer.reminders.incidents.map((incident) => incident.id)).toEqual([staleId]);
    expect(answer.reminders.total).toBe(1);
    const entry = answer.reminders.incidents.find((incident) => incident.id === staleId)!;
    expect(entry.alert_at).toBe(Math.floor((stale.occurredAt.getTime() + 5 * 60_000) / 1000));
    await acknowledgeRoute(apiRequest(`http://localhost/api/incidents/${staleId}/acknowledge`, { method: "POST" }), context(staleId));
    expect((await alerts()).reminders.incidents.map((incident) => incident.id)).not.toContain(staleId);
  });

  it("alerts an exercise's incidents only while that exercise is shown", async () => {
    const db = await getDb();
    const { id: exerciseId } = await db.exercise.create({
      data: { scenario: "la_wildfire", durationMinutes: 10, plannedCalls: 1, shape: "steady", speed: 1, abandonedShare: 0, seed: 1n, state: "running" },
    });
    const call = oneCall({ severity: "critical", simulation: true, tableName: EXERCISE_TABLE_NAME, exerciseId, occurredAt: new Date() });
    await insertCalls(db, [call]);
    const incident = await incidentOf(call.id);
    expect((await alerts()).new.incidents.map((entry) => entry.id)).not.toContain(incident);
    expect((await alerts("?exercise=other")).new.incidents.map((entry) => entry.id)).not.toContain(incident);
    expect((await alerts(`?exercise=${exerciseId}`)).new.incidents.map((entry) => entry.id)).toContain(incident);
  });

  it("keyset pages reach every open incident: by section, by priority or time received, by place", async () => {
    const db = await getDb();
    const open = await db.$queryRaw<{ id: string; status: string; severity: string; first: Date; training: boolean }[]>`
      SELECT id, status, severity, queued_at AS first, simulation AS training FROM incidents WHERE status = ANY(${OPEN}::text[])`;
    const all = await wholeQueue("");
    expect(all.rows.map((row) => row.id).sort()).toEqual(open.map((row) => row.id).sort());
    expect(all.totals).toEqual(new Set([open.length]));

    const waiting = await wholeQueue("&section=waiting");
    const dispatched = await wholeQueue("&section=dispatched", 9);
    expect(waiting.rows.every((row) => row.status === "active")).toBe(true);
    expect(dispatched.rows.every((row) => row.status === "dispatched" || row.status === "enroute")).toBe(true);
    expect(waiting.totals).toEqual(new Set([open.filter((row) => row.status === "active").length]));
    expect(dispatched.totals).toEqual(new Set([open.length - waiting.rows.length]));
    expect([...waiting.rows, ...dispatched.rows].map((row) => row.id).sort()).toEqual(open.map((row) => row.id).sort());

    // Real before training; by priority: severity rank, then first call, then id; by time received: the latest first call first.
    const kind = (a: { training: boolean }, b: { training: boolean }) => Number(a.training) - Number(b.training);
    const rank = (severity: string) => ["critical", "high"].indexOf(severity) + (["critical", "high"].includes(severity) ? 0 : 3);
    const priority = [...open].sort((a, b) => kind(a, b) || rank(a.severity) - rank(b.severity) || a.first.getTime() - b.first.getTime() || (a.id < b.id ? -1 : 1));
    expect(all.rows.map((row) => row.id)).toEqual(priority.map((row) => row.id));
    const received = await wholeQueue("&sort=received", 11);
    const latest = [...open].sort((a, b) => kind(a, b) || b.first.getTime() - a.first.getTime() || (a.id < b.id ? 1 : -1));
    expect(received.rows.map((row) => row.id)).toEqual(latest.map((row) => row.id));

    // By place: incidents with a call of the scenario (and area).
    const area = base.find((call) => call.area !== null && OPEN.includes(call.status))!.area!;
    const [expected] = await db.$queryRaw<{ scenario: number; area: number }[]>`
      SELECT count(DISTINCT i.id) FILTER (WHERE c.scenario = 'la_wildfire')::int AS scenario, count(DISTINCT i.id) FILTER (WHERE c.area = ${area})::int AS area
      FROM incidents i JOIN calls c ON c.incident_id = i.id WHERE i.status = ANY(${OPEN}::text[])`;
    const inScenario = await wholeQueue("&scenario=la_wildfire");
    expect(inScenario.rows.length).toBe(expected.scenario);
    expect(inScenario.totals).toEqual(new Set([expected.scenario]));
    const inArea = await wholeQueue(`&scenario=la_wildfire&area=${encodeURIComponent(area)}`);
    expect(inArea.rows.length).toBe(expected.area);
    expect(inArea.rows.length).toBeGreaterThan(0);
  });

  it("keeps a platform's implausible time as sent, but queues and ages the incident by the call's receipt", async () => {
    const db = await getDb();
    const epoch = oneCall({ severity: "critical", occurredAt: new Date(0) });
    await insertCalls(db, [epoch]);
    const incidentId = await incidentOf(epoch.id);
    const [stored] = await db.$queryRaw<{ occurred: Date; received: Date; first: Date; queued: Date }[]>`
      SELECT c.occurred_at AS occurred, c.created_at AS received, i.first_call_at AS first, i.queued_at AS queued
      FROM calls c JOIN incidents i ON i.id = c.incident_id WHERE c.id = ${epoch.id}`;
    expect(stored.occurred.getTime()).toBe(0);
    expect(stored.first.getTime()).toBe(0);
    expect(stored.queued).toEqual(stored.received);
    const { rows } = await wholeQueue("&section=waiting", 50);
    const rank = rows.findIndex((incident) => incident.id === incidentId);
    expect(rank).toBeGreaterThan(0);
    expect(Date.parse(rows[rank].queued_at)).toBe(stored.received.getTime());
    // A plausible time (an hour before receipt) is the queue's time as sent.
    const hourOld = oneCall({ severity: "critical", occurredAt: new Date(Date.now() - 3600_000) });
    await insertCalls(db, [hourOld]);
    const [plausible] = await db.$queryRaw<{ queued: Date }[]>`SELECT queued_at AS queued FROM incidents WHERE id = ${await incidentOf(hourOld.id)}`;
    expect(plausible.queued).toEqual(hourOld.occurredAt);
  });

  it("keeps when an incident was first dispatched: its timer in the second section runs from then", async () => {
    const db = await getDb();
    const call = oneCall({ severity: "high", occurredAt: new Date(Date.now() - 60_000) });
    await insertCalls(db, [call]);
    const incidentId = await incidentOf(call.id);
    const move = (status: string) =>
      incidentRoute(
        apiRequest(`http://localhost/api/incidents/${incidentId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(withMoveDetails(status)) }),
        context(incidentId),
      );
    expect((await move("dispatched")).status).toBe(200);
    const [{ dispatched }] = await db.$queryRaw<{ dispatched: Date }[]>`SELECT dispatched_at AS dispatched FROM incidents WHERE id = ${incidentId}`;
    expect(dispatched).not.toBeNull();
    expect((await move("enroute")).status).toBe(200);
    const { rows } = await wholeQueue("&section=dispatched&sort=received", 50);
    expect(rows.find((incident) => incident.id === incidentId)).toMatchObject({ status: "enroute", dispatched_at: dispatched.toISOString() });
  });

  it("refuses a bad section, sort or exercise with 400", async () => {
    for (const url of ["/api/live/incidents?section=closed", "/api/live/incidents?sort=size"]) {
      expect((await incidentQueueRoute(apiRequest(`http://localhost${url}`))).status).toBe(400);
    }
    expect((await alertsRoute(apiRequest("http://localhost/api/live/alerts?exercise=%27%3B"))).status).toBe(400);
  });
});
