import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { SCENARIO_IDS } from "@/lib/scenarios";
import type { SimulatedCall } from "@/lib/vocabulary";
import { expectCallsFollowTheRules, isTemplateSummary, seededPart } from "../support/simulated-calls";
import { postSimulate } from "../support/simulate-request";

beforeAll(() => {
  // This file covers the template path; the hosted model has its own file.
  for (const name of ["AI_PROVIDER", "AI_BASE_URL", "AI_MODEL", "AI_API_KEY"]) delete process.env[name];
});

async function rowsOf(tableName: string) {
  const db = await getDb();
  return db.call.findMany({ where: { tableName }, include: { history: true } });
}

describe("POST /api/simulate", () => {
  it("applies the defaults: one la_wildfire call into wildfire-simulation-calls, summarised by template", async () => {
    const { status, body } = await postSimulate({});
    expect(status).toBe(200);
    expect(body).toEqual({
      message: "Generated 1 calls for Los Angeles Wildfire",
      scenario: "la_wildfire",
      total_requested: 1,
      successful: 1,
      failed: 0,
      generation_method: "Templates (fallback)",
      ai_fallbacks: 1,
      sample_calls: [{ call_id: expect.stringMatching(/^LA_WILDFIRE-\d+-\d+$/), location: expect.any(String), emergency_type: expect.any(String) }],
      errors: [],
    });
    const [row] = await rowsOf("wildfire-simulation-calls");
    expect(row.callId).toBe(body.sample_calls![0].call_id);
  });

  it.each(SCENARIO_IDS)("%s: stores 1000 calls that follow every rule, mapped for GET /api/calls", async (scenario) => {
    const tableName = `rules-${scenario}`;
    const requestedAt = Date.now();
    const { status, body } = await postSimulate({ scenario, num_calls: 1000, table_name: tableName });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      scenario,
      total_requested: 1000,
      successful: 1000,
      failed: 0,
      generation_method: "Templates (fast mode)",
      errors: [],
    });
    expect(body).not.toHaveProperty("ai_fallbacks");
    expect(body.sample_calls).toHaveLength(5);

    const rows = await rowsOf(tableName);
    expect(rows).toHaveLength(1000);
    const records = rows.map((row) => row.simulatedRecord as unknown as SimulatedCall);
    expectCallsFollowTheRules(records, scenario);
    expect(records.every(isTemplateSummary)).toBe(true);
    expect(body.message).toBe(`Generated 1000 calls for ${records[0].scenario_name}`);
    // Each event's calls end at the request's time; none is later.
    const latest = Math.max(...records.map((record) => Date.parse(record.created_at)));
    expect(Math.abs(latest - requestedAt)).toBeLessThan(5_000);
    expect(latest).toBeLessThanOrEqual(Date.now());

    const byCallId = new Map(rows.map((row) => [row.callId, row]));
    for (const sample of body.sample_calls!) {
      const row = byCallId.get(sample.call_id)!;
      expect(sample).toEqual({ call_id: row.callId, location: row.area, emergency_type: row.emergencyType });
    }
    for (const row of rows) {
      const record = row.simulatedRecord as unknown as SimulatedCall;
      expect(row).toMatchObject({
        conversationId: record.call_id,
        callId: record.call_id,
        agentId: "simulator",
        summary: record.summary,
        callSuccessful: true,
        durationSecs: record.duration_secs,
        transcriptLength: 0,
        emergencyType: record.emergency_type,
        location: record.location.address,
        latitude: Number(record.location.latitude),
        longitude: Number(record.location.longitude),
        locationSource: "generator",
        severity: record.severity,
        status: "active",
        simulation: true,
        scenario,
        scenarioName: record.scenario_name,
        tableName,
        area: record.location.area,
        callerPhone: record.caller_phone,
        description: record.description,
      });
      expect(row.occurredAt.toISOString()).toBe(record.created_at);
      expect(row.createdAt.toISOString()).toBe(record.created_at);
      expect(row.history).toEqual([
        expect.objectContaining({ fromStatus: null, status: "active", changedBy: "simulator", changedAt: row.createdAt }),
      ]);
    }
  });

  it("reproduces the calls of a seed (ids and times aside)", async () => {
    const request = { scenario: "hurricane_florida", num_calls: 50, seed: 2026 };
    await postSimulate({ ...request, table_name: "seed-a" });
    await postSimulate({ ...request, table_name: "seed-b" });
    await postSimulate({ ...request, seed: 2027, table_name: "seed-c" });
    const content = async (table: string) =>
      (await rowsOf(table))
        .map((row) => row.simulatedRecord as unknown as SimulatedCall)
        .map(seededPart)
        .sort((a, b) => a.location!.address.localeCompare(b.location!.address));
    const [a, b, c] = [await content("seed-a"), await content("seed-b"), await content("seed-c")];
    expect(a).toHaveLength(50);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const ids = await (await getDb()).call.count({ where: { tableName: { in: ["seed-a", "seed-b"] } } });
    expect(ids).toBe(100);
  });

  it("takes the share of duplicate callers from the request: none at 0, most at 0.9", async () => {
    const eventsOf = async (table: string) => new Set((await rowsOf(table)).map((row) => row.simulatedEvent)).size;
    await postSimulate({ scenario: "earthquake_sf", num_calls: 200, seed: 5, duplicate_share: 0, table_name: "share-none" });
    await postSimulate({ scenario: "earthquake_sf", num_calls: 200, seed: 5, duplicate_share: 0.9, table_name: "share-most" });
    await postSimulate({ scenario: "earthquake_sf", num_calls: 200, seed: 5, table_name: "share-default" });
    expect(await eventsOf("share-none")).toBe(200);
    // 200 calls at 0.9: about 20 first callers; at the default 0.3, about 140 events.
    expect(await eventsOf("share-most")).toBeLessThan(50);
    const byDefault = await eventsOf("share-default");
    expect(byDefault).toBeGreaterThan(100);
    expect(byDefault).toBeLessThan(180);
  });

  it("stores every call of 4 parallel 1000-call requests into one table, all ids distinct", async () => {
    const results = await Promise.all(
      SCENARIO_IDS.map(() => postSimulate({ scenario: "earthquake_sf", num_calls: 1000, table_name: "parallel" })),
    );
    for (const { status, body } of results) {
      expect(status).toBe(200);
      expect(body.successful).toBe(1000);
    }
    const rows = await rowsOf("parallel");
    expect(rows).toHaveLength(4000);
    expect(new Set(rows.map((row) => row.callId)).size).toBe(4000);
    expect(rows.every((row) => row.history.length === 1)).toBe(true);
  });

  it("keeps scenarios apart in tables of their own and lists none of them twice", async () => {
    await postSimulate({ scenario: "nashville_tornado", num_calls: 3, table_name: "tornado.drill_1" });
    const rows = await rowsOf("tornado.drill_1");
    expect(rows.map((row) => row.scenario)).toEqual(["nashville_tornado", "nashville_tornado", "nashville_tornado"]);
  });
});
