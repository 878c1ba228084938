import { describe, expect, it } from "vitest";
import { findScenario, SCENARIO_IDS, SEVERITIES } from "@/lib/scenarios/scenario-list";
import fc from "fast-check";
import { geocodeWithCentreIndex } from "@/lib/geocoding/centre/geocode";
import { distanceMeters } from "@/lib/geocoding/centre/geometry";
import { CentreIndex } from "@/lib/geocoding/centre/centre-index";
import { locateOnScenarioStreets } from "@/lib/geocoding/scenario-streets";
import { generateCalls, generateCallsWithEvents } from "@/lib/simulation/generate";
import type { SimulatedCall } from "@/lib/vocabulary";
import { seededRandom, unseededRandom } from "@/lib/simulation/random";
import { expectCallsFollowTheRules, fillShape, isTemplateSummary, seededPart, SPECIFIED_SUMMARY_SHAPES } from "../support/simulated-calls";

const NOW = new Date("2026-11-21T12:34:56.789Z");

function counter(start = 1) {
  let next = start;
  return () => next++;
}

function generate(scenarioId: string, numCalls: number, seed?: number) {
  return generateCalls({
    scenario: findScenario(scenarioId)!,
    numCalls,
    random: seed === undefined ? unseededRandom() : seededRandom(seed),
    now: NOW,
    callNumber: counter(),
  });
}


describe("duplicate callers", () => {
  it("at any share up to 0.9, every call has a place of its own and the share is about what was asked", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 1000 }),
        fc.integer(),
        fc.constantFrom(...SCENARIO_IDS),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        (numCalls, seed, scenarioId, duplicateShare) => {
          const { calls, events } = generateCallsWithEvents({
            scenario: findScenario(scenarioId)!,
            numCalls,
            random: seededRandom(seed),
            now: NOW,
            callNumber: counter(),
            duplicateShare,
          });
          const places = calls.map(({ location }) => `${location.address}|${Number(location.latitude).toFixed(4)}|${Number(location.longitude).toFixed(4)}`);
          expect(new Set(places).size).toBe(numCalls);
          const duplicates = numCalls - new Set(events).size;
          // Binomial: 5 standard deviations of the share either way.
          const margin = 5 * Math.sqrt(numCalls * duplicateShare * (1 - duplicateShare)) + 1;
          expect(Math.abs(duplicates - numCalls * duplicateShare)).toBeLessThanOrEqual(margin);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("simulated times", () => {
  it("no call is after the request; each event's first call comes first and its last call at the request", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.integer(), fc.constantFrom(...SCENARIO_IDS), (numCalls, seed, scenarioId) => {
        const { calls, events } = generateCallsWithEvents({
          scenario: findScenario(scenarioId)!,
          numCalls,
          random: seededRandom(seed),
          now: NOW,
          callNumber: counter(),
        });
        const latest = new Map<string, number>();
        calls.forEach((call, index) => {
          const at = Date.parse(call.created_at);
          expect(at).toBeLessThanOrEqual(NOW.getTime());
          expect(call.timestamp).toBeLessThanOrEqual(Math.floor(NOW.getTime() / 1000));
          const first = calls.find((candidate) => candidate.call_id === events[index])!;
          if (first !== call) expect(at).toBeGreaterThan(Date.parse(first.created_at));
          latest.set(events[index], Math.max(latest.get(events[index]) ?? 0, at));
        });
        for (const at of latest.values()) expect(at).toBe(NOW.getTime());
      }),
      { numRuns: 60 },
    );
  });
});

describe("generateCalls", () => {
  it.each(SCENARIO_IDS)("%s: 1000 calls follow every rule", (scenarioId) => {
    const calls = generate(scenarioId, 1000);
    expect(calls).toHaveLength(1000);
    expectCallsFollowTheRules(calls, scenarioId);
    expect(calls.every(isTemplateSummary)).toBe(true);
    expect(calls[0].call_id).toBe(`${scenarioId.toUpperCase()}-${calls[0].timestamp}-1`);
    // Every event ends at the request: the latest call is at the request's time.
    expect(Math.max(...calls.map((call) => Date.parse(call.created_at)))).toBe(Date.parse("2026-11-21T12:34:56.789Z"));

    const scenario = findScenario(scenarioId)!;
    // Across 1000 calls every area, kind, severity, template and area code shows up.
    expect(new Set(calls.map((call) => call.location.area))).toEqual(new Set(scenario.areas.map((area) => area.name)));
    expect(new Set(calls.map((call) => call.emergency_type))).toEqual(
      new Set(scenario.emergencies.map((kind) => kind.type)),
    );
    expect(new Set(calls.map((call) => call.severity))).toEqual(new Set(SEVERITIES));
    expect(new Set(calls.map((call) => SPECIFIED_SUMMARY_SHAPES.findIndex((shape) => fillShape(shape, call) === call.summary)))).toEqual(
      new Set([0, 1, 2]),
    );
    expect(new Set(calls.map((call) => call.caller_phone.slice(2, 5)))).toEqual(new Set(scenario.phoneAreaCodes));
  });

  it("spreads coordinates over the whole ±0.02° square (the scenario street set's streets run across it)", () => {
    const calls = generate("earthquake_sf", 1000, 7);
    const center = findScenario("earthquake_sf")!.areas.find((area) => area.name === "Marina District")!.center;
    const offsets = calls
      .filter((call) => call.location.area === "Marina District")
      .map((call) => Number(call.location.latitude) - center.lat);
    expect(Math.min(...offsets)).toBeLessThan(-0.018);
    expect(Math.max(...offsets)).toBeGreaterThan(0.018);
  });

  it("weights severity by kind: a trapped person is mostly critical, shelter information mostly moderate", () => {
    const calls = generate("la_wildfire", 1000, 42);
    const share = (type: string, severity: string) => {
      const ofType = calls.filter((call) => call.emergency_type === type);
      return ofType.filter((call) => call.severity === severity).length / ofType.length;
    };
    expect(share("trapped_person", "critical")).toBeGreaterThan(0.6);
    expect(share("shelter_information", "moderate")).toBeGreaterThan(0.6);
  });

  it("reproduces a run from its seed, and different seeds give different runs", () => {
    const first = generate("nashville_tornado", 200, 12345).map(seededPart);
    const again = generate("nashville_tornado", 200, 12345).map(seededPart);
    const other = generate("nashville_tornado", 200, 12346).map(seededPart);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // Large and negative seeds are seeds too.
    expect(generate("la_wildfire", 5, -(2 ** 40)).map(seededPart)).toEqual(generate("la_wildfire", 5, -(2 ** 40)).map(seededPart));
    expect(generate("la_wildfire", 5, 2 ** 40).map(seededPart)).not.toEqual(generate("la_wildfire", 5, 2 ** 41).map(seededPart));
  });

  it("draws ids again when the id source repeats itself within a request", () => {
    const repeats = [7, 7, 7, 8, 8, 9];
    const calls = generateCalls({
      scenario: findScenario("hurricane_florida")!,
      numCalls: 3,
      random: seededRandom(1),
      now: NOW,
      callNumber: () => repeats.shift()!,
      // A duplicate's later time alone would make its id distinct: no duplicates here.
      duplicateShare: 0,
    });
    expect(calls.map((call) => call.call_id.split("-")[2])).toEqual(["7", "8", "9"]);
  });

  it("keeps address and rounded coordinates distinct even when the random source repeats itself", () => {
    // The first 40 draws are all 0.5: without the rule the second call would land on the first one's place.
    const seeded = seededRandom(3);
    let draws = 0;
    const stuck = () => (draws++ < 40 ? 0.5 : seeded());
    const generated = generateCalls({
      scenario: findScenario("earthquake_sf")!,
      numCalls: 3,
      random: stuck,
      now: NOW,
      callNumber: counter(),
    });
    expectCallsFollowTheRules(generated, "earthquake_sf");
    expect(generated[1].location.area).toBe(generated[0].location.area);
  });
});

describe("where generated calls are (docs/simulation.md)", () => {
  const point = (call: SimulatedCall) => ({ lat: Number(call.location.latitude), lon: Number(call.location.longitude) });

  it("puts each event on the street-level point of its address, and each duplicate caller near it", () => {
    const { calls, events, placements } = generateCallsWithEvents({
      scenario: findScenario("hurricane_florida")!,
      numCalls: 300,
      random: seededRandom(33),
      now: NOW,
      callNumber: counter(),
      duplicateShare: 0.3,
    });
    calls.forEach((call, index) => {
      const first = calls.find((candidate) => candidate.call_id === events[index])!;
      const located = locateOnScenarioStreets(call.location.address)!;
      expect(placements[index]).toMatchObject({ precision: "interpolated", source: "generator" });
      if (first === call) {
        expect(call.location.latitude).toBe(located.latitude.toFixed(6));
        expect(call.location.longitude).toBe(located.longitude.toFixed(6));
        expect(placements[index].uncertaintyMeters).toBe(30);
      } else {
        expect(distanceMeters(point(call), point(first))).toBeLessThanOrEqual(placements[index].uncertaintyMeters);
      }
    });
  });

  it("places the addresses the centre's GIS data knows on its points, the others on the scenario street set", () => {
    // A centre whose data has Collins Avenue in Miami Beach (one centreline through the area's square).
    const centre = CentreIndex.fromLines([
      {
        fromAddrL: 101, toAddrL: 2999, fromAddrR: 100, toAddrR: 2998, parityL: "O", parityR: "E",
        stPreDir: null, stPreTyp: null, stName: "Collins", stPosTyp: "Ave", stPosDir: null,
        community: "Miami Beach", postCode: "33139", state: "FL",
        coordinates: [-80.1300, 25.7800, -80.1250, 25.8000],
      },
    ]);
    const { calls, placements } = generateCallsWithEvents({
      scenario: findScenario("hurricane_florida")!,
      numCalls: 400,
      random: seededRandom(7),
      now: NOW,
      callNumber: counter(),
      duplicateShare: 0,
      centre,
    });
    const onCollins = calls.flatMap((call, index) => (call.location.address.includes("Collins Avenue, Miami Beach") ? [index] : []));
    expect(onCollins.length).toBeGreaterThan(0);
    for (const index of onCollins) {
      expect(placements[index]).toMatchObject({ precision: "interpolated", source: "centre_gis" });
      const located = geocodeWithCentreIndex(centre, calls[index].location.address)!;
      expect(calls[index].location.latitude).toBe(located.latitude.toFixed(6));
    }
    expect(placements.filter((placement) => placement.source === "generator").length).toBe(calls.length - onCollins.length);
  });
});
