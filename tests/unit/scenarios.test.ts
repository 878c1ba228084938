import { describe, expect, it } from "vitest";
import { EMERGENCY_TYPES, findScenario, SCENARIO_IDS, SCENARIOS, scenarioCenter } from "@/lib/scenarios/scenario-list";

// The table of docs/interface.md "Scenarios", as written there.
const DECIDED = {
  la_wildfire: {
    name: "Los Angeles Wildfire",
    areas: {
      "Pacific Palisades": [34.0481, -118.5265],
      Malibu: [34.0259, -118.7798],
      Topanga: [34.0937, -118.6012],
      Brentwood: [34.0591, -118.4765],
      "Santa Monica Mountains": [34.1, -118.75],
    },
    codes: ["310", "424", "818"],
    kinds: ["structure_fire", "evacuation_assistance", "trapped_person", "medical_emergency", "shelter_information"],
  },
  nashville_tornado: {
    name: "Nashville Tornado Outbreak",
    areas: {
      "Downtown Nashville": [36.1627, -86.7816],
      "East Nashville": [36.175, -86.75],
      Germantown: [36.1812, -86.7903],
      "The Gulch": [36.152, -86.787],
      "Music Row": [36.149, -86.793],
    },
    codes: ["615", "629"],
    kinds: [
      "building_damage", "trapped_person", "debris_injury", "power_lines_down", "gas_leak",
      "vehicle_accident", "shelter_needed",
    ],
  },
  earthquake_sf: {
    name: "San Francisco Earthquake",
    areas: {
      "Marina District": [37.8037, -122.4368],
      "Mission District": [37.7599, -122.4148],
      "Financial District": [37.7946, -122.3999],
    },
    codes: ["415", "628"],
    kinds: ["building_collapse", "gas_leak", "trapped_person", "medical_injuries"],
  },
  hurricane_florida: {
    name: "Florida Hurricane",
    areas: {
      "Miami Beach": [25.7907, -80.13],
      "Fort Lauderdale": [26.1224, -80.1373],
      "West Palm Beach": [26.7153, -80.0534],
    },
    codes: ["305", "786", "954", "561"],
    kinds: ["flooding", "wind_damage", "power_outage", "evacuation_needed"],
  },
} as const;

describe("scenario data", () => {
  it("has the four documented scenarios, in their order", () => {
    expect(SCENARIO_IDS).toEqual(Object.keys(DECIDED));
  });

  it.each(Object.entries(DECIDED))("%s matches docs/interface.md", (id, decided) => {
    const scenario = findScenario(id)!;
    expect(scenario.name).toBe(decided.name);
    expect(Object.fromEntries(scenario.areas.map((area) => [area.name, [area.center.lat, area.center.lon]]))).toEqual(
      decided.areas,
    );
    expect(scenario.phoneAreaCodes).toEqual(decided.codes);
    expect(scenario.emergencies.map((kind) => kind.type)).toEqual(decided.kinds);
  });

  it("uses 17 of the emergency identifiers, each in at least one scenario; the other three are the agents' only", () => {
    const used = new Set(SCENARIOS.flatMap((scenario) => scenario.emergencies.map((kind) => kind.type)));
    const agentsOnly = ["hazardous_materials", "law_enforcement", "natural_disaster"];
    expect(used.size).toBe(17);
    expect([...used, ...agentsOnly].sort()).toEqual([...EMERGENCY_TYPES].sort());
  });

  it.each(SCENARIOS.map((scenario) => [scenario.id, scenario] as const))(
    "%s has 8+ distinct streets per area, short descriptions and usable weights",
    (_, scenario) => {
      for (const area of scenario.areas) {
        expect(new Set(area.streets).size).toBe(area.streets.length);
        expect(area.streets.length).toBeGreaterThanOrEqual(8);
      }
      for (const kind of scenario.emergencies) {
        expect(kind.weight).toBeGreaterThan(0);
        expect(kind.descriptions.length).toBeGreaterThanOrEqual(3);
        for (const description of kind.descriptions) {
          expect(description.length).toBeLessThanOrEqual(80);
          // Read after "Caller reported ...": starts lower-case, no final full stop.
          expect(description).toMatch(/^[a-z].*[^.]$/);
        }
        for (const weight of Object.values(kind.severity)) expect(weight).toBeGreaterThan(0);
      }
    },
  );

  it("places a scenario's map centre among its areas", () => {
    const center = scenarioCenter(findScenario("earthquake_sf")!);
    expect(center.lat).toBeCloseTo((37.8037 + 37.7599 + 37.7946) / 3, 10);
    expect(center.lon).toBeCloseTo((-122.4368 - 122.4148 - 122.3999) / 3, 10);
  });
});
