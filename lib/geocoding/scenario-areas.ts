import { SCENARIOS } from "../scenarios/scenario-list";
import { localityUncertainty, UNCERTAINTY_METRES } from "./precision";
import type { UsPoint } from "./types";
import { lookupTable } from "../lookup-table";

export interface GazetteerEntry extends UsPoint {
  /** A scenario area (a neighbourhood) or one of the scenario cities: both locality precision. */
  kind: "area" | "city";
  uncertaintyMeters: number;
  /** Lower-case spellings callers use; matched as whole words (see text.ts for normalising). */
  aliases: string[];
}

/** The US state of each scenario: a caller naming another state rules its areas out. */
export const SCENARIO_STATES: Record<string, string> = lookupTable({
  la_wildfire: "CA",
  nashville_tornado: "TN",
  earthquake_sf: "CA",
  hurricane_florida: "FL",
});

/** Spellings callers use for a scenario area besides its own name. */
const AREA_ALIASES: Record<string, string[]> = {
  "Pacific Palisades": ["the palisades", "palisades", "pac pal", "pacific pallisades"],
  Topanga: ["topanga canyon"],
  Brentwood: ["brentwood la", "brentwood los angeles"],
  "Santa Monica Mountains": ["santa monica mtns", "santa monica mts"],
  "Downtown Nashville": ["nashville downtown"],
  "East Nashville": ["east nash"],
  Germantown: ["germantown nashville"],
  "The Gulch": ["gulch"],
  "Marina District": ["the marina"],
  "Mission District": ["the mission", "mission dist"],
  "Financial District": ["fidi", "financial dist"],
  "Miami Beach": ["south beach"],
  "Fort Lauderdale": ["ft lauderdale", "ft. lauderdale", "fort lauderdale beach", "ftl"],
  "West Palm Beach": ["west palm", "wpb"],
};

/** The four scenario cities each have 25 or more ZIP codes: the largest locality radius. */
const CITY_UNCERTAINTY = localityUncertainty(25);

/**
 * The scenario areas (names and centres from lib/scenarios, as in docs/interface.md) and their cities,
 * with the spellings callers use. Offline place lists have some of these (Pacific Palisades,
 * Mission District) but not all (Financial District, The Gulch, Music Row), and none of the
 * nicknames.
 */
export const SCENARIO_GAZETTEER: GazetteerEntry[] = [
  ...SCENARIOS.flatMap((scenario) =>
    scenario.areas.map((area): GazetteerEntry => ({
      name: area.name,
      state: SCENARIO_STATES[scenario.id],
      latitude: area.center.lat,
      longitude: area.center.lon,
      kind: "area",
      uncertaintyMeters: UNCERTAINTY_METRES.locality,
      aliases: [area.name.toLowerCase(), ...(AREA_ALIASES[area.name] ?? [])],
    })),
  ),
  // The scenario cities, for calls that name only the city (or its nickname).
  city("Los Angeles", "CA", 34.0522, -118.2437, ["los angeles", "la", "l.a.", "l a"]),
  city("Nashville", "TN", 36.1627, -86.7816, ["nashville", "nashville tn", "music city"]),
  city("San Francisco", "CA", 37.7749, -122.4194, ["san francisco", "sf", "s.f.", "san fran", "frisco"]),
  city("Miami", "FL", 25.7617, -80.1918, ["miami"]),
];

function city(name: string, state: string, latitude: number, longitude: number, aliases: string[]): GazetteerEntry {
  return { name, state, latitude, longitude, kind: "city", uncertaintyMeters: CITY_UNCERTAINTY, aliases };
}
