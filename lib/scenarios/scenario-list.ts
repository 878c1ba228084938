import { earthquakeSf } from "./earthquake-sf";
import { hurricaneFlorida } from "./hurricane-florida";
import { laWildfire } from "./la-wildfire";
import { nashvilleTornado } from "./nashville-tornado";
import type { LatLon, Scenario } from "./types";

export * from "./types";

/** The four scenarios, in the order docs/interface.md lists them. */
export const SCENARIOS: readonly Scenario[] = [laWildfire, nashvilleTornado, earthquakeSf, hurricaneFlorida];

export const SCENARIO_IDS: readonly string[] = SCENARIOS.map((scenario) => scenario.id);

export const DEFAULT_SCENARIO_ID = laWildfire.id;

export function findScenario(id: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.id === id);
}

/** Where a map should look to see a whole scenario: the mean of its area centres. */
export function scenarioCenter(scenario: Scenario): LatLon {
  const sum = scenario.areas.reduce(
    (total, area) => ({ lat: total.lat + area.center.lat, lon: total.lon + area.center.lon }),
    { lat: 0, lon: 0 },
  );
  return { lat: sum.lat / scenario.areas.length, lon: sum.lon / scenario.areas.length };
}
