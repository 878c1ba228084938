import { SCENARIOS, type Scenario } from "@/lib/scenarios/scenario-list";

/** South-west and north-east corners, as Leaflet takes them. */
export type Bounds = [[number, number], [number, number]];

export interface Region {
  scenario: string;
  label: string;
  bounds: Bounds;
}

/** Calls lie within ±0.02° of an area centre (docs/interface.md); the margin keeps them all in view. */
const MARGIN = 0.03;

function scenarioBounds(scenario: Scenario): Bounds {
  const lats = scenario.areas.map((area) => area.center.lat);
  const lons = scenario.areas.map((area) => area.center.lon);
  return [
    [Math.min(...lats) - MARGIN, Math.min(...lons) - MARGIN],
    [Math.max(...lats) + MARGIN, Math.max(...lons) + MARGIN],
  ];
}

/** The map's quick jumps: one per scenario, framing all of its areas. */
export const REGIONS: Region[] = SCENARIOS.map((scenario) => ({
  scenario: scenario.id,
  label: scenario.name,
  bounds: scenarioBounds(scenario),
}));
