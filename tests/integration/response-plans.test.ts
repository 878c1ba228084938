import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as changesRoute } from "@/app/api/calls/changes/route";
import { POST as assignRoute, GET as recommendRoute } from "@/app/api/incidents/[id]/units/route";
import { PUT as setPlanRoute } from "@/app/api/response-plans/[emergency_type]/[severity]/route";
import { GET as plansRoute } from "@/app/api/response-plans/route";
import { POST as stateRoute } from "@/app/api/units/[id]/state/route";
import { POST as createRoute } from "@/app/api/units/route";
import { getDb } from "@/lib/db/client";
import { importGisLayer } from "@/lib/geocoding/centre/import";
import { readFeedHead } from "@/lib/feed";
import { changePageSchema } from "@/lib/board/schema";
import { responsePlanListSchema, responsePlanSchema } from "@/lib/units/plan-schema";
import { recommendationSchema, type Unit, unitSchema } from "@/lib/units/schema";
import { apiRequest } from "../support/auth";
import { insertCalls, makeCalls } from "../support/calls";
import { RIVER_TOWN, riverTownFeatures, riverTownPoint } from "../support/gis-town";
import { signedIn } from "../support/people";

/**
 * Response plans and travel on the roads (docs/units.md, issue 54): the synthetic county's
 * centrelines (tests/fixtures/gis) with the river town beside it (tests/support/gis-town.ts), imported
 * as one layer; units at stations in the river town; the recommendation read through its route.
 */

const json = { "content-type": "application/json" };
const context = <P>(params: P) => ({ params: Promise.resolve(params) });
const post = (url: string, body: unknown) => apiRequest(`http://localhost${url}`, { method: "POST", headers: json, body: JSON.stringify(body) });
const put = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  apiRequest(`http://localhost${url}`, { method: "PUT", headers: { ...json, ...headers }, body: JSON.stringify(body) });

/** A unit at a station `east`, `north` metres from the river town's origin. */
async function unitAt(callSign: string, type: string, east: number, north: number): Promise<Unit> {
  const { lon, lat } = riverTownPoint(east, north);
  const response = await createRoute(post("/api/units", { call_sign: callSign, type, station: `Station ${callSign}`, station_latitude: lat, station_longitude: lon }), undefined);
  expect(response.status).toBe(201);
  return unitSchema.parse(await response.json());
}

let seed = 5400;
/** A fresh real incident (each fixture call has one of its own) at `east`, `north` in the river town. */
async function incidentAt(east: number, north: number, emergencyType: string, severity: string): Promise<string> {
  const db = await getDb();
  const [call] = makeCalls(20, ++seed).filter((candidate) => !candidate.simulation);
  await insertCalls(db, [call]);
  const { incidentId } = await db.call.findUniqueOrThrow({ where: { id: call.id }, select: { incidentId: true } });
  const { lon, lat } = riverTownPoint(east, north);
  await db.$executeRaw`UPDATE incidents SET latitude = ${lat}, longitude = ${lon}, emergency_type = ${emergencyType}, severity = ${severity} WHERE id = ${incidentId}`;
  return incidentId;
}

async function recommendation(incidentId: string, search = "") {
  const response = await recommendRoute(apiRequest(`http://localhost/api/incidents/${incidentId}/units${search}`), context({ id: incidentId }));
  expect(response.status).toBe(200);
  return recommendationSchema.parse(await response.json());
}

/** Hand computation: metres on the roads at the posted 30 mph, in minutes. */
const minutesAt30Mph = (metres: number) => metres / ((RIVER_TOWN.speedMph * 1609.344) / 3600) / 60;

beforeAll(async () => {
  const county = JSON.parse(readFileSync(path.join(__dirname, "..", "fixtures", "gis", "centrelines.geojson"), "utf8")) as { features: unknown[] };
  const features = [...county.features, ...riverTownFeatures()];
  await importGisLayer({
    format: "geojson",
    chunks: Readable.from([Buffer.from(JSON.stringify({ type: "FeatureCollection", features }))]) as AsyncIterable<Uint8Array>,
    sourceName: "county-and-river-town.geojson",
  });
});

describe("travel time on the roads", () => {
  it("ranks a unit across the river by its road time over the one bridge, after a nearer one by road on the incident's side", async () => {
    // The incident 50 m west of the river's west-bank corner; no plan (a shelter question), so the ranking is by time alone.
    const incident = await incidentAt(700, 10, "shelter_information", "moderate");
    const across = await unitAt("RIVER-E1", "engine", 1250, 5);
    const sameSide = await unitAt("RIVER-E2", "engine", -1250, 0);
    const ranking = await recommendation(incident);
    const ours = ranking.units.filter((entry) => [across.id, sameSide.id].includes(entry.unit.id));
    expect(ours.map((entry) => entry.unit.call_sign)).toEqual(["RIVER-E2", "RIVER-E1"]);
    const [near, far] = ours;
    // In a straight line the unit across the river is the nearer (0.55 km against 1.95 km)...
    expect(far.distance_km!).toBeLessThan(0.6);
    expect(near.distance_km!).toBeGreaterThan(1.9);
    // ...but by road it goes north 1,800 m, over the bridge 500 m, south 1,800 m and west 50 m (not over the footbridge).
    expect(far.travel).toBe("route");
    expect(far.road_km!).toBeGreaterThan(4.15 * 0.9);
    expect(far.road_km!).toBeLessThan(4.15 * 1.1);
    expect(far.travel_minutes!).toBeGreaterThan(minutesAt30Mph(4150) * 0.9);
    expect(far.travel_minutes!).toBeLessThan(minutesAt30Mph(4150) * 1.1);
    expect(near.travel).toBe("route");
    expect(near.travel_minutes!).toBeGreaterThan(minutesAt30Mph(1950) * 0.9);
    expect(near.travel_minutes!).toBeLessThan(minutesAt30Mph(1950) * 1.1);
    expect(far.reason).toMatch(/^4\.\d km by road from Station RIVER-E1 \(home station\), about 5 min$/);
  });

  it("respects one-way streets: a unit the wrong way up a one-way street goes round the block", async () => {
    const x = RIVER_TOWN.northbound;
    const incident = await incidentAt(x, 1200, "shelter_information", "moderate");
    const below = await unitAt("ONEWAY-A1", "ambulance", x, 900);
    const above = await unitAt("ONEWAY-A2", "ambulance", x, 1500);
    const ours = (await recommendation(incident)).units.filter((entry) => [below.id, above.id].includes(entry.unit.id));
    expect(ours.map((entry) => entry.unit.call_sign)).toEqual(["ONEWAY-A1", "ONEWAY-A2"]);
    // Both 300 m away in a straight line; the one above cannot drive south on the northbound street:
    // a block west (or east), 300 m south on the next street, a block back: 600 m.
    expect(ours[0].distance_km).toBeCloseTo(ours[1].distance_km!, 2);
    expect(ours[0].road_km!).toBeCloseTo(0.3, 1);
    expect(ours[1].road_km!).toBeGreaterThan(0.6 * 0.9);
    expect(ours[1].road_km!).toBeLessThan(0.6 * 1.1);
  });

  it("takes the straight line for a unit off the roads, and says so", async () => {
    const incident = await incidentAt(-600, 300, "shelter_information", "moderate");
    // 2 km south of the town's southern street: no centreline within reach.
    const offRoad = await unitAt("FIELD-P1", "patrol", -600, -2000);
    const [entry] = (await recommendation(incident)).units.filter((candidate) => candidate.unit.id === offRoad.id);
    expect(entry.travel).toBe("straight_line");
    expect(entry.road_km).toBeNull();
    expect(entry.reason).toMatch(/about \d+ min at 70 km\/h \(straight line: no road to it within reach\)$/);
  });
});

describe("response plans", () => {
  it("fills a structure fire's plan with the fastest free unit per slot, says why a slot stays empty, and lists the rest after", async () => {
    const db = await getDb();
    // A critical structure fire on the west bank; the default plan: engine 2, ladder 1, ambulance 1, command 1.
    const fire = await incidentAt(-600, 600, "structure_fire", "critical");
    const [e1, e2] = [await unitAt("PLAN-E1", "engine", -900, 600), await unitAt("PLAN-E2", "engine", -600, 1500)];
    await unitAt("PLAN-E3", "engine", 1400, 600);
    const ladder = await unitAt("PLAN-L5", "ladder", -750, 600);
    const ambulance = await unitAt("PLAN-A1", "ambulance", -600, 0);
    const chief = await unitAt("PLAN-C1", "command", -1500, 1800);
    const patrol = await unitAt("PLAN-P1", "patrol", -600, 450);
    // The ladder is on scene at another incident, at 224 N 8th St.
    const elsewhere = await incidentAt(0, 1200, "trapped_person", "high");
    await db.$executeRaw`UPDATE incidents SET location_matched = '224 N 8th St' WHERE id = ${elsewhere}`;
    expect((await assignRoute(post(`/api/incidents/${elsewhere}/units`, { unit_ids: [ladder.id] }), context({ id: elsewhere }))).status).toBe(201);
    expect((await stateRoute(post(`/api/units/${ladder.id}/state`, { state: "on_scene" }), context({ id: ladder.id }))).status).toBe(200);

    const filled = await recommendation(fire);
    expect(filled.plan).toMatchObject({ emergency_type: "structure_fire", severity: "critical", source: "default", complete: false });
    const slots = filled.plan!.slots.map((slot) => [slot.type, slot.call_sign, slot.unfilled_reason]);
    // E1 (300 m) and E2 (900 m) on the incident's side; E3 across the river (2 km straight, far longer by the bridge) is not in the plan.
    expect(slots).toEqual([
      ["engine", "PLAN-E1", null],
      ["engine", "PLAN-E2", null],
      ["ladder", null, "no ladder free: PLAN-L5 on scene at 224 N 8th St"],
      ["ambulance", "PLAN-A1", null],
      ["command", "PLAN-C1", null],
    ]);
    const listed = filled.units.filter((entry) => entry.unit.call_sign.startsWith("PLAN-"));
    expect(listed.map((entry) => [entry.unit.call_sign, entry.slot])).toEqual([
      ["PLAN-E1", 0], ["PLAN-E2", 1], ["PLAN-A1", 3], ["PLAN-C1", 4], ["PLAN-P1", null], ["PLAN-E3", null],
    ]);
    expect(filled.units.slice(0, 4).map((entry) => entry.unit.id)).toEqual([e1.id, e2.id, ambulance.id, chief.id]);
    // Beyond the plan, the nearest first: the patrol 150 m away.
    expect(filled.units[4].unit.id).toBe(patrol.id);

    // What the console shows: the plan whole, and only the first units of the list.
    const shown = await recommendation(fire, "?limit=2");
    expect(shown.plan).toEqual(filled.plan);
    expect(shown.units).toEqual(filled.units.slice(0, 2));
    for (const bad of ["0", "1001", "two", "-1"]) {
      const refused = await recommendRoute(apiRequest(`http://localhost/api/incidents/${fire}/units?limit=${bad}`), context({ id: fire }));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: "limit must be an integer from 1 to 1000" });
    }
  });

  it("lets an administrator change a plan: audited, in the change feed, used by the next recommendation; bad input changes nothing", async () => {
    const db = await getDb();
    const incident = await incidentAt(-300, 300, "gas_leak", "high");
    await unitAt("GAS-E1", "engine", -300, 450);
    await unitAt("GAS-P1", "patrol", -450, 300);
    const before = await recommendation(incident);
    expect(before.plan!.slots.map((slot) => slot.type)).toEqual(["engine", "hazmat"]);
    expect(before.plan!.slots[1].unfilled_reason).toBe("no hazmat unit on the roster");
    const url = "/api/response-plans/gas_leak/high";
    const params = context({ emergency_type: "gas_leak", severity: "high" });
    const audited = () => db.auditEvent.count({ where: { action: "response_plan.changed" } });
    const plans = async () => responsePlanListSchema.parse(await (await plansRoute(apiRequest("http://localhost/api/response-plans"), undefined)).json()).plans;

    // Refused, each with why, and nothing changes.
    const refusals: [unknown, RegExp][] = [
      [{ slots: [{ type: "submarine", count: 1 }] }, /type one of engine/],
      [{ slots: [{ type: "engine", count: 0 }] }, /engine: count must be 1 to 10/],
      [{ slots: [{ type: "engine", count: 1 }, { type: "engine", count: 2 }] }, /engine is named twice/],
      [{ slots: [{ type: "engine", count: 1.5 }] }, /count a whole number/],
      [{}, /slots is required/],
    ];
    for (const [body, message] of refusals) {
      const refused = await setPlanRoute(put(url, body), params);
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toMatch(message);
    }
    const badType = await setPlanRoute(put("/api/response-plans/volcano/high", { slots: [] }), context({ emergency_type: "volcano", severity: "high" }));
    expect(badType.status).toBe(400);
    expect((await badType.json()).message).toMatch(/^emergency_type must be one of structure_fire/);
    const badSeverity = await setPlanRoute(put("/api/response-plans/gas_leak/urgent", { slots: [] }), context({ emergency_type: "gas_leak", severity: "urgent" }));
    expect(badSeverity.status).toBe(400);
    const dispatcher = await signedIn("dispatcher");
    expect((await setPlanRoute(put(url, { slots: [] }, { cookie: dispatcher.cookie }), params)).status).toBe(403);
    expect(await audited()).toBe(0);
    expect((await plans()).find((plan) => plan.emergency_type === "gas_leak" && plan.severity === "high")).toMatchObject({ source: "default", updated_at: null });

    const cursor = await readFeedHead(db);
    const changed = await setPlanRoute(put(url, { slots: [{ type: "engine", count: 1 }, { type: "patrol", count: 1 }] }), params);
    expect(changed.status).toBe(200);
    expect(responsePlanSchema.parse(await changed.json())).toMatchObject({ source: "centre", slots: [{ type: "engine", count: 1 }, { type: "patrol", count: 1 }], updated_by_name: "API_KEY" });
    const [entry] = await db.auditEvent.findMany({ where: { action: "response_plan.changed" } });
    expect(entry).toMatchObject({ targetKind: "response_plan", targetId: "gas_leak/high", actorName: "API_KEY" });
    expect(entry.before).toEqual({ source: "default", slots: [{ type: "engine", count: 1 }, { type: "hazmat", count: 1 }] });
    expect(entry.after).toEqual({ slots: [{ type: "engine", count: 1 }, { type: "patrol", count: 1 }] });
    const feed = changePageSchema.parse(await (await changesRoute(apiRequest(`http://localhost/api/calls/changes?after=${cursor}`), undefined)).json());
    expect(feed.changes.filter((change) => "response_plan" in change)).toMatchObject([{ response_plan: { emergency_type: "gas_leak", severity: "high", source: "centre" } }]);

    const after = await recommendation(incident);
    expect(after.plan).toMatchObject({ source: "centre", complete: true });
    expect(after.plan!.slots.map((slot) => [slot.type, slot.call_sign])).toEqual([["engine", "GAS-E1"], ["patrol", "GAS-P1"]]);
  });
});
