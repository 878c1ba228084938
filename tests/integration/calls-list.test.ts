import { apiRequest } from "@/tests/support/auth";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/calls/route";
import { callTrackingId } from "@/lib/calls/tracking-id";
import { callListSchema, type CallList } from "@/lib/calls/schema";
import { getDb } from "@/lib/db/client";
import {
  byListingOrder,
  type CallInput,
  FIXTURE_START_MS,
  insertCalls,
  makeCalls,
  unixSeconds,
} from "../support/calls";

const calls = makeCalls(240, 7);

async function list(query: string): Promise<{ status: number; body: CallList & Record<string, unknown> }> {
  const response = await GET(apiRequest(`http://localhost/api/calls?${query}`), undefined);
  return { status: response.status, body: await response.json() };
}

/** Every record matching the query, by walking pages of `limit`. */
async function walk(query: string, limit: number): Promise<{ ids: string[]; totals: Set<number> }> {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let offset = 0; ; offset += limit) {
    const { status, body } = await list(`${query}&limit=${limit}&offset=${offset}`);
    expect(status).toBe(200);
    totals.add(body.pagination.total);
    ids.push(...body.calls.map((call) => call.conversation_id));
    expect(body.pagination.has_more).toBe(offset + body.calls.length < body.pagination.total);
    if (!body.pagination.has_more) return { ids, totals };
  }
}

interface ModelQuery {
  emergency_type?: string;
  severity?: string;
  status?: string;
  location?: string;
  simulation?: "true" | "false";
  table_name?: string;
  platform?: string;
  /** Inclusive bounds in milliseconds, as the ISO texts below mean them. */
  start?: { text: string; ms: number };
  end?: { text: string; ms: number };
}

/** The straightforward reading of docs/interface.md "Listing filters", to compare the database's answers with. */
function matches(call: CallInput, query: ModelQuery): boolean {
  const timestampMs = unixSeconds(call) * 1000;
  return (
    (query.emergency_type === undefined || call.emergencyType === query.emergency_type) &&
    (query.severity === undefined || call.severity === query.severity) &&
    (query.status === undefined || call.status === query.status) &&
    (query.simulation === undefined || String(call.simulation) === query.simulation) &&
    (query.table_name === undefined || call.tableName === query.table_name) &&
    (query.platform === undefined || call.platform === query.platform) &&
    (query.location === undefined || call.location.toLowerCase().includes(query.location.toLowerCase())) &&
    (query.start === undefined || timestampMs >= query.start.ms) &&
    (query.end === undefined || timestampMs <= query.end.ms)
  );
}

function toSearch(query: ModelQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === "start") params.set("start_date", (value as { text: string }).text);
    else if (key === "end") params.set("end_date", (value as { text: string }).text);
    else params.set(key, value as string);
  }
  return params.toString();
}

async function expectSameAsModel(query: ModelQuery): Promise<number> {
  const expected = calls.filter((call) => matches(call, query)).sort(byListingOrder);
  const { status, body } = await list(`${toSearch(query)}&limit=1000`);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.calls.map((call) => call.conversation_id), toSearch(query)).toEqual(
    expected.map((call) => call.conversationId),
  );
  expect(body.pagination.total, toSearch(query)).toBe(expected.length);
  return expected.length;
}

const day = (offsetDays: number) => new Date(FIXTURE_START_MS + offsetDays * 86_400_000).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

beforeAll(async () => {
  await insertCalls(await getDb(), calls);
});

describe("GET /api/calls", () => {
  it("answers the newest 50 of all tables with the documented body and all filter keys null", async () => {
    const { status, body } = await list("");
    expect(status).toBe(200);
    callListSchema.parse(body);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: calls.length, has_more: true });
    expect(body.filters).toEqual({
      emergency_type: null,
      severity: null,
      status: null,
      start_date: null,
      end_date: null,
      location: null,
      simulation: null,
    });
    const newest = [...calls].sort(byListingOrder).slice(0, 50);
    expect(body.calls.map((call) => call.conversation_id)).toEqual(newest.map((call) => call.conversationId));
  });

  it("shows simulated calls with the documented mapping and voice-agent calls without simulation fields", async () => {
    const { body } = await list("limit=1000");
    const simulated = calls.find((call) => call.simulation)!;
    const voice = calls.find((call) => !call.simulation)!;
    const shownSimulated = body.calls.find((call) => call.conversation_id === simulated.callId)!;
    expect(shownSimulated).toEqual({
      conversation_id: simulated.callId,
      timestamp: unixSeconds(simulated),
      agent_id: "simulator",
      summary: simulated.summary,
      call_successful: true,
      duration_secs: simulated.durationSecs,
      transcript_length: 0,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      emergency_type: simulated.emergencyType,
      location: simulated.location,
      latitude: simulated.latitude,
      longitude: simulated.longitude,
      location_precision: simulated.locationPrecision,
      location_uncertainty_m: simulated.locationUncertaintyM,
      location_matched: null,
      location_source: simulated.locationSource,
      severity: simulated.severity,
      status: simulated.status,
      simulation: true,
      scenario: "la_wildfire",
      scenario_name: "Los Angeles Wildfire",
      table_name: simulated.tableName,
      call_id: simulated.callId,
      area: simulated.area,
      caller_phone: simulated.callerPhone,
      description: simulated.description,
      // Added by incidents (docs/incidents.md): each fixture call has an incident of its own.
      incident_id: expect.any(String),
      // Added by issue 26: simulated calls count as elevenlabs.
      platform: "elevenlabs",
      // Not a webhook delivery: neither verified nor unverified (docs/webhook.md, "Unsigned deliveries").
      verified: null,
      // NENA's Call Identifier, its EIDO's callComponent $id (docs/integrations.md, "Joining calls").
      tracking_id: callTrackingId(simulated.callId!),
    });
    const shownVoice = body.calls.find((call) => call.conversation_id === voice.conversationId)!;
    expect(shownVoice).toMatchObject({ agent_id: "agent_911", simulation: false, scenario: null, scenario_name: null, table_name: "calls", verified: true });
    expect(Object.keys(shownVoice)).not.toEqual(expect.arrayContaining(["call_id"]));
    for (const extra of ["call_id", "area", "caller_phone", "description"]) expect(shownVoice).not.toHaveProperty(extra);
  });

  describe("filters agree with an in-memory filter of the same rows", () => {
    const singles: ModelQuery[] = [
      { emergency_type: "structure_fire" },
      { emergency_type: "flooding" },
      { emergency_type: "gas_leak" },
      { emergency_type: "not_a_type" },
      { severity: "critical" },
      { severity: "moderate" },
      { status: "active" },
      { status: "resolved" },
      { simulation: "true" },
      { simulation: "false" },
      { table_name: "calls" },
      { table_name: "tornado_drill.2026" },
      { table_name: "no-such-table" },
      { platform: "elevenlabs" },
      { platform: "vapi" },
      { platform: "retell" },
      { location: "malibu" },
      { location: "MAIN" },
      { location: "0%" },
      { location: "%" },
      { location: "_" },
      { location: "r_S" },
      { location: "\\" },
      { location: "k\\s" },
      { start: { text: day(1), ms: FIXTURE_START_MS + DAY_MS } },
      { end: { text: day(1), ms: FIXTURE_START_MS + 2 * DAY_MS - 1 } },
      { start: { text: `${day(1)}T06:30:00Z`, ms: FIXTURE_START_MS + DAY_MS + 6.5 * 3_600_000 } },
      { end: { text: `${day(1)}T06:30:00.250Z`, ms: FIXTURE_START_MS + DAY_MS + 6.5 * 3_600_000 + 250 } },
      { start: { text: `${day(1)}T08:30:00+02:00`, ms: FIXTURE_START_MS + DAY_MS + 6.5 * 3_600_000 } },
      { start: { text: `${day(1)}T06:30`, ms: FIXTURE_START_MS + DAY_MS + 6.5 * 3_600_000 } },
    ];

    it.each(singles.map((query) => [toSearch(query), query]))("%s", async (_name, query) => {
      await expectSameAsModel(query);
    });

    it("agrees on every pair of filter kinds and on larger combinations", async () => {
      const kinds: ModelQuery[][] = [
        [{ emergency_type: "structure_fire" }, { emergency_type: "medical_emergency" }],
        [{ severity: "critical" }, { severity: "high" }],
        [{ status: "active" }, { status: "dispatched" }],
        [{ simulation: "true" }, { simulation: "false" }],
        [{ table_name: "calls" }, { table_name: "wildfire-simulation-calls" }],
        [{ location: "pacific" }, { location: "district" }],
        [{ platform: "vapi" }, { platform: "elevenlabs" }],
        [{ start: { text: day(1), ms: FIXTURE_START_MS + DAY_MS } }],
        [{ end: { text: day(1), ms: FIXTURE_START_MS + 2 * DAY_MS - 1 } }],
      ];
      let nonEmpty = 0;
      for (let a = 0; a < kinds.length; a++) {
        for (let b = a + 1; b < kinds.length; b++) {
          for (const first of kinds[a]) {
            for (const second of kinds[b]) {
              if ((await expectSameAsModel({ ...first, ...second })) > 0) nonEmpty++;
            }
          }
        }
      }
      // The pairs must mostly select something, or the comparison proves little.
      expect(nonEmpty).toBeGreaterThan(60);
      await expectSameAsModel({ severity: "critical", status: "active", simulation: "true", location: "a" });
      await expectSameAsModel({
        emergency_type: "structure_fire",
        severity: "high",
        simulation: "false",
        table_name: "calls",
        start: { text: day(0), ms: FIXTURE_START_MS },
        end: { text: day(2), ms: FIXTURE_START_MS + 3 * DAY_MS - 1 },
      });
    });

    it("treats both date bounds as inclusive on a record's own timestamp", async () => {
      const call = calls[100];
      const second = unixSeconds(call);
      const at = new Date(second * 1000).toISOString();
      const { body } = await list(`start_date=${at}&end_date=${at}&limit=1000`);
      const expected = calls.filter((other) => unixSeconds(other) === second);
      expect(body.calls.map((shown) => shown.conversation_id).sort()).toEqual(
        expected.map((other) => other.conversationId).sort(),
      );
      expect(body.calls.length).toBeGreaterThanOrEqual(1);
      // A bound half a second later excludes that second from below and keeps it from above.
      const half = new Date(second * 1000 + 500).toISOString();
      expect((await list(`start_date=${half}&end_date=${half}`)).body.pagination.total).toBe(0);
    });

    it("echoes the filters it applied, table_name only when given", async () => {
      const { body } = await list("severity=high&simulation=false&start_date=2026-03-01&location=Main&table_name=calls");
      expect(body.filters).toEqual({
        emergency_type: null,
        severity: "high",
        status: null,
        start_date: "2026-03-01",
        end_date: null,
        location: "Main",
        simulation: false,
        table_name: "calls",
      });
    });

    it("treats an empty value as a parameter not given", async () => {
      const { status, body } = await list("severity=&limit=&location=&simulation=");
      expect(status).toBe(200);
      expect(body.pagination).toMatchObject({ limit: 50, total: calls.length });
      expect(body.filters.severity).toBeNull();
    });
  });

  describe("paging", () => {
    it.each([1, 7, 50, 240])("walks every record exactly once in order, ties included (limit %i)", async (limit) => {
      const { ids, totals } = await walk("", limit);
      expect(ids).toEqual([...calls].sort(byListingOrder).map((call) => call.conversationId));
      expect(new Set(ids).size).toBe(calls.length);
      expect([...totals]).toEqual([calls.length]);
    });

    it("walks a filtered listing exactly once", async () => {
      const query = { simulation: "true", location: "district" } as const;
      const { ids } = await walk(toSearch(query), 3);
      expect(ids).toEqual(calls.filter((call) => matches(call, query)).sort(byListingOrder).map((call) => call.conversationId));
    });

    it("has records sharing a second and a millisecond, so the walk above tested ties", () => {
      const seconds = calls.map(unixSeconds);
      const ms = calls.map((call) => call.occurredAt.getTime());
      expect(new Set(seconds).size).toBeLessThan(calls.length - 20);
      expect(new Set(ms).size).toBeLessThan(calls.length - 20);
    });

    it("answers an empty page past the end", async () => {
      const { status, body } = await list("offset=5000");
      expect(status).toBe(200);
      expect(body.calls).toEqual([]);
      expect(body.pagination).toEqual({ limit: 50, offset: 5000, total: calls.length, has_more: false });
    });
  });

  describe("invalid parameters answer 400 INVALID_PARAMETER and name the parameter", () => {
    const limitMessage = "limit must be an integer from 1 to 1000";
    const offsetMessage = "offset must be a non-negative integer";
    const cases: [string, string, string][] = [
      ["limit=0", "Invalid limit", limitMessage],
      ["limit=1001", "Invalid limit", limitMessage],
      ["limit=-1", "Invalid limit", limitMessage],
      ["limit=abc", "Invalid limit", limitMessage],
      ["limit=1.5", "Invalid limit", limitMessage],
      ["limit=10abc", "Invalid limit", limitMessage],
      ["limit=1e2", "Invalid limit", limitMessage],
      ["limit=5&limit=6", "Invalid limit", "limit must be given only once"],
      ["offset=-1", "Invalid offset", offsetMessage],
      ["offset=abc", "Invalid offset", offsetMessage],
      ["offset=2.5", "Invalid offset", offsetMessage],
      ["offset=99999999999999999999", "Invalid offset", offsetMessage],
      ["start_date=yesterday", "Invalid date format", "start_date must be in ISO 8601 format"],
      ["start_date=2026-13-01", "Invalid date format", "start_date must be in ISO 8601 format"],
      ["start_date=2026-02-30", "Invalid date format", "start_date must be in ISO 8601 format"],
      ["start_date=2026-03-01T25:00:00Z", "Invalid date format", "start_date must be in ISO 8601 format"],
      ["start_date=1700000000", "Invalid date format", "start_date must be in ISO 8601 format"],
      ["end_date=03/01/2026", "Invalid date format", "end_date must be in ISO 8601 format"],
      ["end_date=2026-03-01T10:00:00+25:00", "Invalid date format", "end_date must be in ISO 8601 format"],
      ["start_date=2026-03-02&end_date=2026-03-01", "Invalid date range", "start_date must not be after end_date"],
      ["severity=urgent", "Invalid parameter", "severity must be one of critical, high, moderate"],
      ["status=closed", "Invalid parameter", "status must be one of active, dispatched, enroute, resolved, failed"],
      ["simulation=yes", "Invalid parameter", "simulation must be true or false"],
      ["simulation=TRUE", "Invalid parameter", "simulation must be true or false"],
      ["table_name=a", "Invalid parameter", "table_name must match ^[A-Za-z0-9_.-]{3,255}$"],
      [`location=${"x".repeat(201)}`, "Invalid parameter", "location must be at most 200 characters"],
      [`emergency_type=${"x".repeat(101)}`, "Invalid parameter", "emergency_type must be at most 100 characters"],
    ];

    it.each(cases)("%s", async (query, label, message) => {
      const { status, body } = await list(query);
      expect(status).toBe(400);
      expect(body).toEqual({
        error: label,
        message,
        timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        error_code: "INVALID_PARAMETER",
      });
    });
  });
});
