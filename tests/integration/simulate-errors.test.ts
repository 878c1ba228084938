import { testAdmin } from "@/tests/support/auth";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { closeDb, getDb } from "@/lib/db/client";
import { groupNow } from "@/lib/incidents/grouper";
import { findScenario, SCENARIO_IDS } from "@/lib/scenarios/scenario-list";
import { generateCalls } from "@/lib/simulation";
import { seededRandom } from "@/lib/simulation/random";
import { parseSimulateRequest } from "@/lib/simulation/request";
import { runSimulation } from "@/lib/simulation/run";
import { postSimulate } from "../support/simulate-request";

beforeAll(() => {
  for (const name of ["AI_PROVIDER", "AI_BASE_URL", "AI_MODEL", "AI_API_KEY"]) delete process.env[name];
});

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function callCount(): Promise<number> {
  return (await getDb()).call.count();
}

describe("POST /api/simulate: bad requests change nothing", () => {
  it("answers an unknown scenario with the four available ones", async () => {
    const { status, body } = await postSimulate({ scenario: "mars_invasion", num_calls: 5 });
    expect(status).toBe(400);
    expect(body).toEqual({
      error: "Unknown scenario: mars_invasion",
      details: "scenario must be one of: la_wildfire, nashville_tornado, earthquake_sf, hurricane_florida",
      timestamp: expect.stringMatching(isoTimestamp),
      error_code: "INVALID_PARAMETER",
      available_scenarios: [...SCENARIO_IDS],
    });
    const other = await postSimulate({ scenario: 42 });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe("Unknown scenario: 42");
    expect(other.body.available_scenarios).toEqual([...SCENARIO_IDS]);
  });

  it.each([0, 1001, -5, 2.5, "10", null, true])("refuses num_calls %j in the general format", async (numCalls) => {
    const { status, body } = await postSimulate({ scenario: "earthquake_sf", num_calls: numCalls });
    expect(status).toBe(400);
    expect(body).toEqual({
      error: "Invalid num_calls",
      details: "num_calls must be an integer from 1 to 1000",
      timestamp: expect.stringMatching(isoTimestamp),
      error_code: "INVALID_PARAMETER",
    });
  });

  it.each(["ab", "has space", "semi;colon", "x".repeat(256), "", 12])("refuses table_name %j", async (tableName) => {
    const { status, body } = await postSimulate({ table_name: tableName });
    expect(status).toBe(400);
    expect(body.error).toBe("Invalid table_name");
    expect(body.details).toMatch(/^table_name must be 3 to 255 characters/);
    expect(body.timestamp).toMatch(isoTimestamp);
  });

  it.each([1.5, "7", 2 ** 60])("refuses seed %j", async (seed) => {
    const { status, body } = await postSimulate({ seed });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "Invalid seed", details: "seed must be an integer" });
  });

  it.each([-0.1, 0.95, 1, "0.5", null])("refuses duplicate_share %j", async (share) => {
    const { status, body } = await postSimulate({ duplicate_share: share });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "Invalid duplicate_share", details: "duplicate_share must be a number from 0 to 0.9" });
  });

  it("refuses malformed JSON with 400 and a body that is not an object", async () => {
    const malformed = await postSimulate('{"scenario": "la_wildfire",');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: "Invalid JSON", error_code: "INVALID_JSON" });
    expect(malformed.body.timestamp).toMatch(isoTimestamp);
    for (const body of [[], "la_wildfire", null, 5]) {
      const answer = await postSimulate(JSON.stringify(body));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: "Invalid request", details: "The request body must be a JSON object" });
    }
  });

  it("refuses a body that is not JSON with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/xml"]) {
      const { status, body } = await postSimulate("scenario=la_wildfire", { "content-type": type });
      expect(status).toBe(415);
      expect(body).toMatchObject({ error: "Unsupported media type", error_code: "UNSUPPORTED_MEDIA_TYPE" });
    }
  });

  it("stored nothing for any of them", async () => {
    expect(await callCount()).toBe(0);
  });

  it("validates the scenario before the other fields", () => {
    expect(() => parseSimulateRequest({ scenario: "nope", num_calls: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_PARAMETER", label: "Unknown scenario: nope" }),
    );
  });
});

describe("POST /api/simulate: call-store failures", () => {
  afterEach(async () => {
    const db = await getDb();
    await db.$executeRawUnsafe("DROP TRIGGER IF EXISTS reject_gas_leaks ON calls");
  });

  it("counts each call the store refuses in failed and errors, and stores the others", async () => {
    const db = await getDb();
    await db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION reject_gas_leak() RETURNS trigger AS $$
      BEGIN
        IF NEW.emergency_type = 'gas_leak' THEN RAISE EXCEPTION 'gas leaks are refused in this drill'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await db.$executeRawUnsafe(
      "CREATE TRIGGER reject_gas_leaks BEFORE INSERT ON calls FOR EACH ROW EXECUTE FUNCTION reject_gas_leak()",
    );
    // The seed says which calls will be gas leaks.
    const expected = generateCalls({
      scenario: findScenario("nashville_tornado")!,
      numCalls: 600,
      random: seededRandom(99),
      now: new Date(),
      callNumber: Math.random,
    })
      .map((call, index) => (call.emergency_type === "gas_leak" ? index + 1 : 0))
      .filter(Boolean);
    expect(expected.length).toBeGreaterThan(10);

    const { status, body } = await postSimulate({
      scenario: "nashville_tornado",
      num_calls: 600,
      seed: 99,
      table_name: "drill",
    });
    expect(status).toBe(200);
    expect(body.successful).toBe(600 - expected.length);
    expect(body.failed).toBe(expected.length);
    expect(body.errors).toEqual(expected.map((n) => `Error on call ${n}: gas leaks are refused in this drill`));
    expect(body.message).toBe(`Generated ${600 - expected.length} calls for Nashville Tornado Outbreak`);

    const rows = await db.call.findMany({ where: { tableName: "drill" }, include: { history: true } });
    expect(rows).toHaveLength(600 - expected.length);
    expect(rows.some((row) => row.emergencyType === "gas_leak")).toBe(false);
    expect(rows.every((row) => row.history.length === 1)).toBe(true);
    expect(await db.callStatusChange.count({ where: { call: { tableName: "drill" } } })).toBe(rows.length);
  });

  it("never overwrites a stored call: a taken call_id is drawn again", async () => {
    const now = new Date("2026-11-21T08:00:00.123Z");
    const counter = () => {
      let next = 1;
      return () => next++;
    };
    const request = parseSimulateRequest({ scenario: "la_wildfire", num_calls: 30, table_name: "clash" });
    const first = await runSimulation(request, testAdmin, { now: () => now, callNumber: counter() });
    // Grouped first: the grouper's move into an incident is not an overwrite of what was stored.
    await groupNow();
    const db = await getDb();
    const before = await db.call.findMany({ where: { tableName: "clash" }, orderBy: { callId: "asc" } });

    // Same second, same numbers: every id of the second run is taken at first.
    const second = await runSimulation(request, testAdmin, { now: () => now, callNumber: counter() });
    await groupNow();
    expect(first.successful).toBe(30);
    expect(second.successful).toBe(30);
    expect(second.errors).toEqual([]);
    const firstIds = first.sample_calls.map((call) => call.call_id);
    for (const sample of second.sample_calls) expect(firstIds).not.toContain(sample.call_id);

    const after = await db.call.findMany({ where: { tableName: "clash" } });
    expect(after).toHaveLength(60);
    expect(new Set(after.map((row) => row.callId)).size).toBe(60);
    const stillThere = after.filter((row) => before.some((old) => old.id === row.id));
    expect(stillThere.sort((a, b) => a.callId!.localeCompare(b.callId!))).toEqual(before);
  });

  it("answers 500 in the simulation format when the store is down", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/unreachable";
    resetConfigForTests();
    await closeDb();
    try {
      const { status, body } = await postSimulate({ num_calls: 25 });
      expect(status).toBe(500);
      expect(body).toEqual({
        error: "Database error",
        details: "The call store is not available",
        timestamp: expect.stringMatching(isoTimestamp),
        error_code: "DATABASE_ERROR",
      });
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
      resetConfigForTests();
      await closeDb();
    }
  });
});
