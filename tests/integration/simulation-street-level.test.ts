import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { testAdmin } from "@/tests/support/auth";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { createExercise } from "@/lib/exercises/create";
import { parseCreateExercise } from "@/lib/exercises/schema";
import { distanceMeters } from "@/lib/geocoding/centre/geometry";
import { groupNow } from "@/lib/incidents/grouper";
import { findScenario } from "@/lib/scenarios/scenario-list";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { manualClock, runFor } from "../support/exercise-clock";
import { postSimulate } from "../support/simulate-request";
import { webhookRequest } from "../support/webhook-request";

/**
 * Simulations and exercises behave like a centre with GIS data (docs/simulation.md, "Where
 * generated calls are"): each generated call carries the street-level point of its address, and a
 * training installation (GEOCODER_SCENARIO_STREETS=true) resolves the address spoken back through
 * the signed webhook to that point. Without the switch a real call is located as before.
 */
const SECRET = "street-level-simulation-secret";
const saved = { secret: process.env.VOICEAGENT_WEBHOOK_SECRET, streets: process.env.GEOCODER_SCENARIO_STREETS };
const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
beforeAll(() => {
  process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
  resetConfigForTests();
});
afterAll(() => {
  restore("VOICEAGENT_WEBHOOK_SECRET", saved.secret);
  restore("GEOCODER_SCENARIO_STREETS", saved.streets);
  resetConfigForTests();
});

function scenarioStreets(on: boolean) {
  process.env.GEOCODER_SCENARIO_STREETS = on ? "true" : "false";
  resetConfigForTests();
}

const runId = randomInt(1_000_000);
let posted = 0;

/** Posts a signed call whose caller gave `location` (no coordinates); answers its stored row. */
async function speak(location: string) {
  const id = `conv_spoken_${runId}_${++posted}`;
  const response = await webhook(webhookRequest(specCallEvent(id, { location, eventTimestamp: 1_767_225_600 + posted * 86_400 }), { secret: SECRET }), undefined);
  expect(response.status).toBe(200);
  return (await getDb()).call.findUniqueOrThrow({ where: { conversationId: id } });
}

const pointOf = (row: { latitude: number | null; longitude: number | null }) => ({ lat: row.latitude!, lon: row.longitude! });

async function simulatedRows(tableName: string) {
  const db = await getDb();
  return db.call.findMany({ where: { tableName }, orderBy: { createdAt: "asc" } });
}

describe("simulated calls at street level", () => {
  const tableName = `street-level-${runId}`;

  it("carry the interpolated point of their address, 30 m, placed by the generator", async () => {
    const { status } = await postSimulate({ scenario: "hurricane_florida", num_calls: 40, table_name: tableName, seed: 33, duplicate_share: 0 });
    expect(status).toBe(200);
    const rows = await simulatedRows(tableName);
    expect(rows).toHaveLength(40);
    for (const row of rows) {
      expect(row).toMatchObject({ locationPrecision: "interpolated", locationUncertaintyM: 30, locationSource: "generator" });
    }
  });

  it("spoken back through the signed webhook, each address lands within 30 m of its generated point", async () => {
    scenarioStreets(true);
    const rows = (await simulatedRows(tableName)).slice(0, 5);
    for (const row of rows) {
      // As a caller would say it: the suffix abbreviated, lower case.
      const spoken = row.location!.replace("Avenue", "Ave").replace("Boulevard", "Blvd").toLowerCase();
      const call = await speak(spoken);
      expect(call, spoken).toMatchObject({ locationPrecision: "interpolated", locationSource: "generator" });
      expect(distanceMeters(pointOf(call), pointOf(row)), spoken).toBeLessThanOrEqual(30);
    }
  });

  it("without GEOCODER_SCENARIO_STREETS a real call naming the same address is at its town's centre, and says so", async () => {
    scenarioStreets(false);
    const [row] = await simulatedRows(tableName);
    const call = await speak(row.location!);
    expect(call).toMatchObject({ locationPrecision: "locality", locationSource: "gazetteer" });
  });

  it("two generated calls at different addresses of one area are not grouped on a town-centre point", async () => {
    await groupNow();
    const rows = await simulatedRows(tableName);
    const areas = new Map(findScenario("hurricane_florida")!.areas.map((area) => [area.name, area.center]));
    let pairs = 0;
    for (const [i, a] of rows.entries()) {
      expect(distanceMeters(pointOf(a), areas.get(a.area!)!)).toBeGreaterThan(0);
      for (const b of rows.slice(i + 1)) {
        if (a.area !== b.area || a.location === b.location) continue;
        expect(pointOf(a)).not.toEqual(pointOf(b));
        // Farther apart than any grouping radius (at most 1000 m): two incidents.
        if (distanceMeters(pointOf(a), pointOf(b)) > 1_000) {
          pairs++;
          expect(a.incidentId, `${a.location} / ${b.location}`).not.toBe(b.incidentId);
        }
      }
    }
    expect(pairs).toBeGreaterThan(10);
  });

  it("an exercise's calls carry their street-level point too", async () => {
    const clock = manualClock();
    const exercise = await createExercise(
      parseCreateExercise({ scenario: "earthquake_sf", num_calls: 20, duration_minutes: 10, speed: 60, seed: 3, start: true }),
      testAdmin,
      clock,
    );
    await runFor(clock, 10 * 60_000, { speed: 60, stepMs: 30_000 });
    const rows = await (await getDb()).call.findMany({ where: { exerciseId: exercise.id } });
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row).toMatchObject({ locationPrecision: "interpolated", locationUncertaintyM: 30, locationSource: "generator" });
  });
});
