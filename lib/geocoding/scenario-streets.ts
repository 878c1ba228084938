import { type Area, SCENARIOS } from "../scenarios/scenario-list";
import type { CentrelineRow } from "./centre/fields";
import { geocodeWithCentreIndex } from "./centre/geocode";
import { CentreIndex } from "./centre/centre-index";
import { spokenStreet } from "./centre/usps";
import { processPart } from "../process-parts";
import { SCENARIO_STATES } from "./scenario-areas";
import type { GeocodeResult } from "./types";

/**
 * The scenario street set (docs/simulation.md, "Where generated calls are"): a synthetic road
 * centreline for every street of every scenario area, laid out as a grid within the area's ±0.02°
 * square, in NENA's terms. The streets' names are the area's real streets; their geometry is not
 * theirs. The simulator places a generated address on its street here (when the centre's own GIS
 * data does not know it), and with GEOCODER_SCENARIO_STREETS=true the geocoder resolves the same
 * spoken address to the same point.
 *
 * Every street runs straight through its area: east-west and north-south in turn, evenly spaced
 * across it, numbered 100 to 2999 from its west or south end (odd numbers on the left, even on the
 * right), the range the generator draws numbers from.
 */

/** Half a street's length, in degrees: the lines end inside the area's ±0.02°, houses included. */
const HALF_LENGTH_DEG = 0.0195;
/** The outermost streets lie this far from the area's centre, in degrees. */
const HALF_SPACING_DEG = 0.0175;
/** The generator's house numbers, 100 to 2999: odd ones on a street's left, even ones on its right. */
export const SCENARIO_HOUSE_NUMBERS = { min: 100, max: 2999 } as const;

/** Where the k-th of `count` parallel streets lies across the area, in degrees from its centre. */
function across(k: number, count: number): number {
  return count === 1 ? 0 : -HALF_SPACING_DEG + (2 * HALF_SPACING_DEG * k) / (count - 1);
}

function areaCentrelines(area: Area, state: string): CentrelineRow[] {
  const eastWest = Math.ceil(area.streets.length / 2);
  const northSouth = area.streets.length - eastWest;
  return area.streets.map((name, index): CentrelineRow => {
    const street = spokenStreet(name);
    const k = index >> 1;
    const { lat, lon } = area.center;
    const coordinates =
      index % 2 === 0
        ? [lon - HALF_LENGTH_DEG, lat + across(k, eastWest), lon + HALF_LENGTH_DEG, lat + across(k, eastWest)]
        : [lon + across(k, northSouth), lat - HALF_LENGTH_DEG, lon + across(k, northSouth), lat + HALF_LENGTH_DEG];
    return {
      fromAddrL: SCENARIO_HOUSE_NUMBERS.min + 1,
      toAddrL: SCENARIO_HOUSE_NUMBERS.max,
      fromAddrR: SCENARIO_HOUSE_NUMBERS.min,
      toAddrR: SCENARIO_HOUSE_NUMBERS.max - 1,
      parityL: "O",
      parityR: "E",
      stPreDir: street.preDir || null,
      stPreTyp: null,
      stName: street.name,
      stPosTyp: street.postType || null,
      stPosDir: street.postDir || null,
      community: area.name,
      postCode: null,
      state,
      coordinates,
    };
  });
}

/** Every scenario area's synthetic centrelines. */
export function scenarioCentrelines(): CentrelineRow[] {
  return SCENARIOS.flatMap((scenario) => scenario.areas.flatMap((area) => areaCentrelines(area, SCENARIO_STATES[scenario.id])));
}

const scenarioStreetIndex = () => processPart("scenario-street-index", () => CentreIndex.fromLines(scenarioCentrelines()));

/**
 * "1234 Sunset Boulevard, Pacific Palisades" on the scenario street set: `interpolated` (30 m),
 * source `generator`, when the text names a scenario area and a number of one of its streets'
 * ranges; anything less (no area named, a street alone, a crossing) is null, for the other
 * geocoders: the set's streets have no real geometry to offer beyond the generator's own points.
 */
export function locateOnScenarioStreets(text: string): GeocodeResult | null {
  const result = geocodeWithCentreIndex(scenarioStreetIndex(), text, { requireCommunity: true });
  return result?.precision === "interpolated" ? { ...result, source: "generator" } : null;
}
