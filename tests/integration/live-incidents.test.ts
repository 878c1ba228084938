import { apiRequest } from "@/tests/support/auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as boardRoute } from "@/app/api/live/board/route";
import { GET as incidentMapRoute } from "@/app/api/live/incident-map/route";
import { GET as callMapRoute } from "@/app/api/live/map/route";
import { GET as incidentQueueRoute } from "@/app/api/live/incidents/route";
import { POST as merge } from "@/app/api/incidents/[id]/merge/route";
import { getDb } from "@/lib/db/client";
import { groupNow } from "@/lib/incidents/grouper";
import { EXERCISE_TABLE_NAME } from "@/lib/vocabulary";
import { boardSchema, incidentMapViewSchema, incidentQueuePageSchema, type LiveIncident, mapViewSchema } from "@/lib/board/schema";
import { closeRedis } from "@/lib/redis";
import { insertCalls, makeCalls } from "../support/calls";
import { postSimulate } from "../support/simulate-request";

const get = async (handler: (request: Request) => Promise<Response>, url: string) => {
  const response = await handler(apiRequest(`http://localhost${url}`));
  return { status: response.status, body: (await response.json()) as unknown };
};

const OPEN = ["active", "dispatched", "enroute"];

/** Every page of the incident queue, by its keyset cursor. */
async function wholeQueue(query: string, limit = 13): Promise<LiveIncident[]> {
  const rows: LiveIncident[] = [];
  for (let after: string | null = ""; after !== null; ) {
    const cursor: string = after ? `&after=${encodeURIComponent(after)}` : "";
    const { status, body } = await get(incidentQueueRoute, `/api/live/incidents?limit=${limit}${query}${cursor}`);
    expect(status).toBe(200);
    const page = incidentQueuePageSchema.parse(body);
    rows.push(...page.incidents);
    after = page.next;
  }
  return rows;
}

/** The open incidents in queue order as SQL states it (every real one before any training one), with their calls counted from the calls. */
async function expectedQueue(hideExercises: boolean) {
  return (await getDb()).$queryRaw<{ id: string; training: boolean; calls: number; latest: string; summary: string }[]>`
    SELECT i.id, i.simulation AS training, (SELECT count(*)::int FROM calls c WHERE c.incident_id = i.id) AS calls,
      (SELECT conversation_id FROM calls c WHERE c.incident_id = i.id ORDER BY occurred_at DESC, id DESC LIMIT 1) AS latest,
      (SELECT summary FROM calls c WHERE c.incident_id = i.id ORDER BY occurred_at DESC, id DESC LIMIT 1) AS summary
    FROM incidents i
    WHERE i.status = ANY(${OPEN}::text[])
      AND (NOT ${hideExercises} OR NOT EXISTS (
        SELECT 1 FROM calls c WHERE c.incident_id = i.id AND c.simulation AND c.table_name = ${EXERCISE_TABLE_NAME}))
    ORDER BY i.simulation, CASE i.severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 ELSE 2 END, i.queued_at, i.id`;
}

describe("live incidents: queue, board count and map", () => {
  let exerciseIncidents: string[] = [];

  beforeAll(async () => {
    const db = await getDb();
    // Fixture calls, each its own incident; some of them released by an exercise.
    const calls = makeCalls(160, 21);
    const exerciseCalls = makeCalls(20, 22).map((call) => ({ ...call, simulation: true, tableName: EXERCISE_TABLE_NAME }));
    await insertCalls(db, [...calls, ...exerciseCalls]);
    // Simulated calls with duplicates (about 30%): incidents of several callers.
    const { status } = await postSimulate({ scenario: "earthquake_sf", num_calls: 100, seed: 7, table_name: "incident_queue_test" });
    expect(status).toBe(200);
    // Grouping runs after the response: finish it, so that no background batch moves calls mid-test.
    await groupNow();
    // Several real fixture incidents merged into one: more callers, mixed severities and statuses.
    const open = await db.call.findMany({ where: { id: { in: calls.map((call) => call.id) }, status: { in: OPEN }, simulation: false }, take: 6, orderBy: { id: "asc" } });
    for (const other of open.slice(1)) {
      const response = await merge(
        apiRequest(`http://localhost/api/incidents/${open[0].incidentId}/merge`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ other_id: other.incidentId }),
        }),
        { params: Promise.resolve({ id: open[0].incidentId }) },
      );
      expect(response.status).toBe(200);
    }
    exerciseIncidents = (await db.call.findMany({ where: { tableName: EXERCISE_TABLE_NAME }, select: { incidentId: true } })).map((call) => call.incidentId);
  });
  afterAll(closeRedis);

  it("lists every open incident once, most urgent and longest waiting first, with its exact call count and latest call", async () => {
    const expected = await expectedQueue(false);
    // The data must hold what the test is about: incidents of several calls, and exercise incidents.
    expect(expected.some((row) => row.calls >= 5)).toBe(true);
    expect(expected.reduce((sum, row) => sum + row.calls, 0)).toBeGreaterThan(expected.length);
    const queue = await wholeQueue("");
    expect(queue.map((row) => row.id)).toEqual(expected.map((row) => row.id));
    expect(queue.map((row) => row.call_count)).toEqual(expected.map((row) => row.calls));
    expect(queue.map((row) => row.latest_call.conversation_id)).toEqual(expected.map((row) => row.latest));
    expect(queue.map((row) => row.latest_call.summary)).toEqual(expected.map((row) => row.summary));
    // Real before training, then critical, high, moderate.
    const ranks = queue.map((row) => (row.training ? 3 : 0) + ["critical", "high", "moderate"].indexOf(row.severity));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(queue.some((row) => row.training) && queue.some((row) => !row.training)).toBe(true);
    // One page of 500 is the same list.
    expect((await wholeQueue("", 500)).map((row) => row.id)).toEqual(expected.map((row) => row.id));
  });

  it("lists each kind apart in the same order, real before training by time received too, and reads each branch from its index", async () => {
    const expected = await expectedQueue(false);
    for (const kind of ["real", "training"] as const) {
      const queue = await wholeQueue(`&kind=${kind}`);
      expect(queue.map((row) => row.id)).toEqual(expected.filter((row) => row.training === (kind === "training")).map((row) => row.id));
      const first = incidentQueuePageSchema.parse((await get(incidentQueueRoute, `/api/live/incidents?limit=1&kind=${kind}`)).body);
      expect(first.total).toBe(queue.length);
    }
    const received = await wholeQueue("&sort=received&section=waiting");
    const kinds = received.map((row) => row.training);
    expect(kinds).toEqual([...kinds].sort((a, b) => Number(a) - Number(b)));
    for (const training of [false, true]) {
      const times = received.filter((row) => row.training === training).map((row) => Date.parse(row.queued_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    expect(received.length).toBe(incidentQueuePageSchema.parse((await get(incidentQueueRoute, "/api/live/incidents?limit=1&section=waiting")).body).total);
    // A branch of the queue reads its own index, however many incidents of the other kind are open.
    const db = await getDb();
    await db.$executeRawUnsafe("ANALYZE incidents");
    const plans = await db.$transaction(async (tx) => {
      // Ordered from an index, not sorted: the cheapest such index is the one whose equalities leave nothing to filter.
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      await tx.$executeRawUnsafe("SET LOCAL enable_sort = off");
      return Promise.all([
        "SELECT id FROM incidents WHERE simulation = false AND severity = 'high' AND status = 'active' ORDER BY queued_at, id LIMIT 51",
        "SELECT id FROM incidents WHERE simulation = true AND status = 'active' ORDER BY queued_at DESC, id DESC LIMIT 51",
      ].map((query) => tx.$queryRawUnsafe<Record<string, string>[]>(`EXPLAIN ${query}`)));
    });
    const [byPriority, byReceipt] = plans.map((plan) => plan.map((row) => Object.values(row)[0]).join("\n"));
    expect(byPriority).toContain("incidents_simulation_severity_status_queued_at_id_idx");
    expect(byPriority).not.toContain("Filter");
    expect(byReceipt).toContain("incidents_simulation_status_queued_at_id_idx");
    expect(byReceipt).not.toContain("Filter");
  });

  it("says since when an incident has a caller on the line, from its earliest call still on it", async () => {
    const db = await getDb();
    const [row] = (await wholeQueue("&kind=real")).filter((incident) => incident.call_count >= 2);
    expect(row.on_line_since).toBeNull();
    const calls = await db.call.findMany({ where: { incidentId: row.id }, orderBy: { occurredAt: "asc" } });
    // The later one on the line, then both: the earliest still on the line sets the time.
    await db.$executeRaw`UPDATE calls SET on_line = true WHERE id = ${calls[1].id}`;
    const since = async () => (await wholeQueue("&kind=real")).find((incident) => incident.id === row.id)!.on_line_since;
    expect(await since()).toBe(Math.floor(calls[1].occurredAt.getTime() / 1000));
    await db.$executeRaw`UPDATE calls SET on_line = true WHERE id = ${calls[0].id}`;
    expect(await since()).toBe(Math.floor(calls[0].occurredAt.getTime() / 1000));
    await db.$executeRaw`UPDATE calls SET on_line = false WHERE incident_id = ${row.id}`;
    expect(await since()).toBeNull();
  });

  it("counts open incidents exactly beside open calls on the board, and hides exercise incidents with exercises=hide", async () => {
    for (const hide of [false, true]) {
      const suffix = hide ? "exercises=hide" : "exercises=show";
      const expected = await expectedQueue(hide);
      const board = boardSchema.parse((await get(boardRoute, `/api/live/board?${suffix}`)).body);
      expect(board.open_incidents).toBe(expected.length);
      const queue = await wholeQueue(`&${suffix}`);
      expect(queue.map((row) => row.id)).toEqual(expected.map((row) => row.id));
      const listed = new Set(queue.map((row) => row.id));
      expect(exerciseIncidents.some((id) => listed.has(id))).toBe(!hide);
    }
  });

  it("maps incidents with their calls: exact counts over the viewport, markers sized by calls, exercise incidents hidden", async () => {
    const db = await getDb();
    for (const hide of [false, true]) {
      const [sql] = await db.$queryRaw<{ incidents: number; calls: number }[]>`
        SELECT count(*)::int AS incidents, coalesce(sum(call_count), 0)::int AS calls FROM incidents i
        WHERE i.status = ANY(${OPEN}::text[]) AND i.latitude IS NOT NULL
          AND (NOT ${hide} OR NOT EXISTS (
            SELECT 1 FROM calls c WHERE c.incident_id = i.id AND c.simulation AND c.table_name = ${EXERCISE_TABLE_NAME}))`;
      const suffix = hide ? "&exercises=hide" : "";
      const { status, body } = await get(incidentMapRoute, `/api/live/incident-map?west=-180&south=-85&east=180&north=85&zoom=2&closed_hours=0${suffix}`);
      expect(status).toBe(200);
      const view = incidentMapViewSchema.parse(body);
      expect(view.shown).toBe(sql.incidents);
      expect(view.shown_calls).toBe(sql.calls);
      const clustered = view.clusters.reduce((sum, cluster) => sum + cluster.count, 0);
      expect(clustered + view.markers.length).toBe(sql.incidents);
      expect(view.clusters.reduce((sum, cluster) => sum + cluster.calls, 0) + view.markers.reduce((sum, m) => sum + m.call_count, 0)).toBe(sql.calls);
    }
    // At street level around the simulated scenario, every incident is a marker with its call count.
    const street = incidentMapViewSchema.parse(
      (await get(incidentMapRoute, "/api/live/incident-map?west=-122.52&south=37.70&east=-122.35&north=37.83&zoom=16")).body,
    );
    expect(street.clusters).toEqual([]);
    expect(street.markers.length).toBe(street.shown);
    for (const marker of street.markers.slice(0, 20)) {
      expect(marker.call_count).toBe(await db.call.count({ where: { incidentId: marker.id } }));
    }
    expect(street.markers.some((marker) => marker.call_count > 1)).toBe(true);
  });

  it("shows incidents on one point (a town centre) as their own markers at street level, on both maps", async () => {
    const db = await getDb();
    const point = { latitude: 44.3683, longitude: -100.351 };
    // Voice-agent calls of three kinds, which no grouping rule joins.
    const onePoint = makeCalls(40, 23)
      .filter((call) => !call.simulation)
      .slice(0, 3)
      .map((call, index) => ({ ...call, ...point, status: "active", emergencyType: ["structure_fire", "evacuation_assistance", "trapped_person"][index] }));
    await insertCalls(db, onePoint);
    const incidents = new Set((await db.call.findMany({ where: { id: { in: onePoint.map((call) => call.id) } } })).map((call) => call.incidentId));
    expect(incidents.size).toBe(3);
    const box = "west=-100.36&south=44.36&east=-100.34&north=44.38";
    const street = incidentMapViewSchema.parse((await get(incidentMapRoute, `/api/live/incident-map?${box}&zoom=16`)).body);
    expect(street.clusters).toEqual([]);
    expect(new Set(street.markers.map((marker) => marker.id))).toEqual(incidents);
    const calls = mapViewSchema.parse((await get(callMapRoute, `/api/live/map?${box}&zoom=16`)).body);
    expect(calls.clusters).toEqual([]);
    expect(new Set(calls.markers.map((marker) => marker.conversation_id))).toEqual(new Set(onePoint.map((call) => call.conversationId)));
    // Below street level they are one cluster of three.
    const town = incidentMapViewSchema.parse((await get(incidentMapRoute, `/api/live/incident-map?${box}&zoom=15`)).body);
    expect(town.markers).toEqual([]);
    expect(town.clusters.map((cluster) => cluster.count)).toEqual([3]);
  });

  it("rejects a bad cursor, limit or viewport with 400", async () => {
    expect((await get(incidentQueueRoute, "/api/live/incidents?limit=0")).status).toBe(400);
    expect((await get(incidentQueueRoute, "/api/live/incidents?after=nonsense")).status).toBe(400);
    expect((await get(incidentQueueRoute, "/api/live/incidents?exercises=maybe")).status).toBe(400);
    expect((await get(incidentQueueRoute, "/api/live/incidents?kind=exercise")).status).toBe(400);
    expect((await get(incidentMapRoute, "/api/live/incident-map?west=-125&south=30&east=-110&zoom=3")).status).toBe(400);
    expect((await get(incidentMapRoute, "/api/live/incident-map?west=-180&south=-85&east=180&north=85&zoom=14")).status).toBe(400);
  });
});
