import { apiRequest } from "@/tests/support/auth";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as changesRoute } from "@/app/api/calls/changes/route";
import { GET as boardRoute } from "@/app/api/live/board/route";
import { GET as hourlyRoute } from "@/app/api/live/hourly/route";
import { GET as mapRoute } from "@/app/api/live/map/route";
import { GET as queueRoute } from "@/app/api/live/queue/route";
import { PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { uuid7 } from "@/lib/db/uuid7";
import { readChanges } from "@/lib/board/feed-pages";
import { boardSchema, changePageSchema, hourlySeriesSchema, isCallChange, mapViewSchema, queuePageSchema, type ChangePage } from "@/lib/board/schema";
import { closeRedis } from "@/lib/redis";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { insertCalls, makeCalls, random } from "../support/calls";
import { webhookRequest } from "../support/webhook-request";

const get = async (handler: (request: Request) => Promise<Response>, url: string) => {
  const response = await handler(apiRequest(`http://localhost${url}`));
  return { status: response.status, body: (await response.json()) as unknown };
};

async function changesAfter(after: number, limit = 1000): Promise<ChangePage> {
  const { status, body } = await get(changesRoute, `/api/calls/changes?after=${after}&limit=${limit}`);
  expect(status).toBe(200);
  return changePageSchema.parse(body);
}

/**
 * Reads the whole feed from `after`: the calls' latest change numbers as the feed showed them.
 * Through the domain function (the route's own tests are above): a polling loop this fast would
 * meet the calls rate limit.
 */
async function drain(after: number, seen: Map<string, number>): Promise<number> {
  let cursor = after;
  for (;;) {
    const page = await readChanges(cursor, 7);
    for (const change of page.changes.filter(isCallChange)) {
      expect(change.change).toBeGreaterThan(cursor);
      cursor = change.change;
      seen.set(change.call.conversation_id, change.change);
    }
    if (!page.has_more) return cursor;
  }
}

async function storedChangeNumbers(): Promise<Map<string, number>> {
  const rows = await (await getDb()).$queryRaw<{ id: string; change: bigint }[]>`
    SELECT conversation_id AS id, change_number AS change FROM calls`;
  return new Map(rows.map((row) => [row.id, Number(row.change)]));
}

const OPEN = ["active", "dispatched", "enroute"];

describe("change feed", () => {
  beforeAll(async () => {
    await insertCalls(await getDb(), makeCalls(300, 12));
  });
  afterAll(closeRedis);

  it("numbers every insert and update, and lists each call once at its latest change", async () => {
    const seen = new Map<string, number>();
    const start = await drain(0, seen);
    expect(seen).toEqual(await storedChangeNumbers());

    const response = await webhook(webhookRequest(specCallEvent("conv-feed-1", { location: "Mission District, San Francisco" })), undefined);
    expect(response.status).toBe(200);
    const afterWebhook = await changesAfter(start);
    expect(afterWebhook.changes.filter(isCallChange).map((change) => change.call.conversation_id)).toEqual(["conv-feed-1"]);
    expect(afterWebhook.changes.filter(isCallChange)[0].call.status).toBe("active");

    const patched = await patchCall(
      apiRequest("http://localhost/api/calls/conv-feed-1", { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "dispatched" }) }),
      { params: Promise.resolve({ id: "conv-feed-1" }) },
    );
    expect(patched.status).toBe(200);
    const afterPatch = await changesAfter(afterWebhook.cursor);
    expect(afterPatch.changes).toHaveLength(1);
    expect(afterPatch.changes.filter(isCallChange)[0].call.status).toBe("dispatched");
    expect(afterPatch.changes[0].change).toBeGreaterThan(afterWebhook.cursor);
    // From the older cursor the call shows once, at its latest state.
    const fromStart = await changesAfter(start);
    expect(fromStart.changes.filter(isCallChange).map((change) => [change.call.conversation_id, change.call.status])).toEqual([["conv-feed-1", "dispatched"]]);
    expect(await changesAfter(afterPatch.cursor)).toEqual({ changes: [], cursor: afterPatch.cursor, has_more: false });
  });

  it("rejects a bad cursor or limit with 400 and the calls error format", async () => {
    for (const query of ["after=-1", "after=abc", "limit=0", "limit=1001", "after=1&after=2"]) {
      const { status, body } = await get(changesRoute, `/api/calls/changes?${query}`);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ error_code: "INVALID_PARAMETER" });
    }
  });

  // The property the advisory lock exists for: a reader that advances its cursor while writers
  // commit out of order (each holds its transaction open a random while after writing) still sees
  // every call at its final change. Without the lock, a number taken early and committed late falls
  // behind a cursor that already passed it.
  it.skipIf(!getConfig().DATABASE_URL)("is gapless for a reader polling while concurrent writers commit out of order", async () => {
    const seen = new Map<string, number>();
    let cursor = await drain(0, seen);
    const pool = new pg.Pool({ connectionString: getConfig().DATABASE_URL, max: 8 });
    const next = random(99);
    const existing = [...seen.keys()];
    let writing = true;
    const reader = (async () => {
      while (writing) cursor = await drain(cursor, seen);
    })();
    const writer = async (index: number) => {
      const client = await pool.connect();
      try {
        for (let round = 0; round < 12; round++) {
          await client.query("BEGIN");
          if (next() < 0.5) {
            const id = `conv-race-${index}-${round}`;
            await client.query(
              `INSERT INTO calls (id, conversation_id, occurred_at, agent_id, summary, call_successful, duration_secs,
                 transcript_length, emergency_type, location, severity, status, simulation, table_name)
               VALUES ($1, $2, now(), 'agent', 'race', true, 10, 1, 'flooding', 'Somewhere', 'high', 'active', false, 'calls')`,
              [uuid7(), id],
            );
          } else {
            const id = existing[Math.floor(next() * existing.length)];
            await client.query("UPDATE calls SET summary = summary || '.' WHERE conversation_id = $1", [id]);
          }
          await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 30)));
          await client.query("COMMIT");
        }
      } finally {
        client.release();
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, index) => writer(index)));
    writing = false;
    await reader;
    await pool.end();
    await drain(cursor, seen);
    expect(seen).toEqual(await storedChangeNumbers());
  });
});

describe("board, queue and map", () => {
  afterAll(closeRedis);

  it("counts exactly what SQL counts", async () => {
    const { status, body } = await get(boardRoute, "/api/live/board");
    expect(status).toBe(200);
    const board = boardSchema.parse(body);
    const db = await getDb();
    const rows = await db.$queryRaw<{ severity: string; status: string; n: bigint }[]>`
      SELECT severity, status, count(*) AS n FROM calls GROUP BY 1, 2`;
    const sum = (keep: (row: { severity: string; status: string }) => boolean) =>
      rows.filter(keep).reduce((total, row) => total + Number(row.n), 0);
    expect(board.open.total).toBe(sum((row) => OPEN.includes(row.status)));
    expect(board.open.total).toBeGreaterThan(0);
    for (const level of ["critical", "high"] as const) {
      expect(board.open.by_severity[level]).toBe(sum((row) => OPEN.includes(row.status) && row.severity === level));
    }
    for (const state of OPEN) {
      expect(board.open.by_status[state as "active"]).toBe(sum((row) => row.status === state));
    }
    expect(board.total_calls).toBe(sum(() => true));
    const [{ oldest }] = await db.$queryRaw<{ oldest: Date }[]>`
      SELECT min(occurred_at) AS oldest FROM calls WHERE severity = 'critical' AND status IN ('active', 'dispatched', 'enroute')`;
    expect(board.oldest_open.critical).toBe(Math.floor(oldest.getTime() / 1000));
    expect(board.hourly.total).toBeGreaterThan(0);
    expect(board.hourly.hours.reduce((total, hour) => total + hour.total, 0)).toBe(board.hourly.total);
  });

  it("counts calls per hour as SQL does, from the trigger-kept hourly counts and from the rows under a location filter", async () => {
    const db = await getDb();
    for (const [query, condition] of [
      ["", "true"],
      ["?severity=critical&simulation=true", "severity = 'critical' AND simulation"],
      ["?location=malibu", "location ILIKE '%malibu%'"],
    ] as const) {
      const series = hourlySeriesSchema.parse((await get(hourlyRoute, `/api/live/hourly${query}`)).body);
      const rows = await db.$queryRawUnsafe<{ hour: Date; n: bigint }[]>(`
        WITH newest AS (SELECT date_trunc('hour', max(occurred_at), 'UTC') AS hour FROM calls WHERE ${condition})
        SELECT date_trunc('hour', occurred_at, 'UTC') AS hour, count(*) AS n FROM calls, newest
        WHERE ${condition} AND occurred_at >= newest.hour - interval '71 hours' GROUP BY 1`);
      const expected = new Map(rows.map((row) => [Math.floor(row.hour.getTime() / 1000), Number(row.n)]));
      const shown = new Map(series.hours.filter((hour) => hour.total > 0).map((hour) => [hour.hour, hour.total]));
      expect(shown, query).toEqual(expected);
      expect(series.total).toBe([...expected.values()].reduce((a, b) => a + b, 0));
    }
  });

  it("lists every open call once, most urgent first, the oldest critical call heading it", async () => {
    const db = await getDb();
    const open = await db.$queryRaw<{ id: string; severity: string; occurred: Date; key: string }[]>`
      SELECT conversation_id AS id, severity, occurred_at AS occurred, id AS key FROM calls WHERE status IN ('active', 'dispatched', 'enroute')`;
    const rank = (severity: string) => (severity === "critical" ? 0 : severity === "high" ? 1 : 2);
    const expected = [...open]
      .sort((a, b) => rank(a.severity) - rank(b.severity) || a.occurred.getTime() - b.occurred.getTime() || (a.key < b.key ? 1 : -1))
      .map((row) => row.id);
    const walked: string[] = [];
    let after: string | null = null;
    do {
      const { status, body } = await get(queueRoute, `/api/live/queue?limit=13${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      expect(status).toBe(200);
      const page = queuePageSchema.parse(body);
      walked.push(...page.calls.map((call) => call.conversation_id));
      after = page.next;
    } while (after !== null);
    expect(walked).toEqual(expected);
    expect(open.find((row) => row.id === walked[0])?.severity).toBe("critical");
  });

  it("clusters the viewport's calls with exact counts, and shows single calls as markers", async () => {
    const db = await getDb();
    const [{ n }] = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM calls
      WHERE latitude BETWEEN 30 AND 40 AND longitude BETWEEN -125 AND -110
        AND (status IN ('active', 'dispatched', 'enroute') OR changed_at >= now() - interval '6 hours')`;
    for (const zoom of [3, 6, 8]) {
      const { status, body } = await get(mapRoute, `/api/live/map?west=-125&south=30&east=-110&north=40&zoom=${zoom}`);
      expect(status).toBe(200);
      const view = mapViewSchema.parse(body);
      const counted = view.clusters.reduce((total, cluster) => total + cluster.count, 0) + view.markers.length;
      expect(counted, `zoom ${zoom}`).toBe(Number(n));
      expect(view.shown).toBe(Number(n));
      for (const cluster of view.clusters) expect(cluster.critical + cluster.high + cluster.moderate).toBe(cluster.count);
    }
    // Street level: every call in a small box is its own marker (calls at one point share a cell).
    const [one] = await db.$queryRaw<{ latitude: number; longitude: number }[]>`
      SELECT latitude, longitude FROM calls WHERE latitude IS NOT NULL AND status IN ('active', 'dispatched', 'enroute') LIMIT 1`;
    const box = `west=${one.longitude - 0.001}&south=${one.latitude - 0.001}&east=${one.longitude + 0.001}&north=${one.latitude + 0.001}`;
    const street = mapViewSchema.parse((await get(mapRoute, `/api/live/map?${box}&zoom=18`)).body);
    expect(street.markers.map((call) => call.latitude)).toContain(one.latitude);
    const wide = mapViewSchema.parse((await get(mapRoute, "/api/live/map?west=-125&south=30&east=-110&north=40&zoom=3")).body);
    expect(wide.clusters.length).toBeLessThanOrEqual(4);
    const closed = mapViewSchema.parse((await get(mapRoute, "/api/live/map?west=-125&south=30&east=-110&north=40&zoom=3&closed_hours=0")).body);
    const [{ open }] = await db.$queryRaw<{ open: bigint }[]>`
      SELECT count(*) AS open FROM calls
      WHERE latitude BETWEEN 30 AND 40 AND longitude BETWEEN -125 AND -110 AND status IN ('active', 'dispatched', 'enroute')`;
    expect(closed.shown).toBe(Number(open));
    expect((await get(mapRoute, "/api/live/map?west=-125&south=30&east=-110&zoom=3")).status).toBe(400);
    expect((await get(mapRoute, "/api/live/map?west=-180&south=-85&east=180&north=85&zoom=14")).status).toBe(400);
  });
});
