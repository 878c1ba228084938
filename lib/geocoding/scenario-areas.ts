import type { Precision } from "./types";

export interface GazetteerEntry {
  name: string;
  /** Two-letter US state code. */
  state: string;
  latitude: number;
  longitude: number;
  precision: Precision;
  /** Lower-case spellings callers use; matched as whole words (see text.ts for normalising). */
  aliases: string[];
}

/**
 * The scenario areas (centres as in decisions.md) and their cities, with the spellings callers use.
 * Offline place lists have some of these (Pacific Palisades, Mission District) but not all
 * (Financial District, The Gulch, Music Row), and none of the nicknames.
 */
export const SCENARIO_GAZETTEER: GazetteerEntry[] = [
  // la_wildfire
  area("Pacific Palisades", "CA", 34.0481, -118.5265, ["pacific palisades", "the palisades", "palisades", "pac pal", "pacific pallisades"]),
  area("Malibu", "CA", 34.0259, -118.7798, ["malibu"]),
  area("Topanga", "CA", 34.0937, -118.6012, ["topanga", "topanga canyon"]),
  area("Brentwood", "CA", 34.0591, -118.4765, ["brentwood", "brentwood la", "brentwood los angeles"]),
  area("Santa Monica Mountains", "CA", 34.1, -118.75, ["santa monica mountains", "santa monica mtns", "santa monica mts"]),
  // nashville_tornado
  area("Downtown Nashville", "TN", 36.1627, -86.7816, ["downtown nashville", "nashville downtown"]),
  area("East Nashville", "TN", 36.175, -86.75, ["east nashville", "east nash"]),
  area("Germantown", "TN", 36.1812, -86.7903, ["germantown", "germantown nashville"]),
  area("The Gulch", "TN", 36.152, -86.787, ["the gulch", "gulch"]),
  area("Music Row", "TN", 36.149, -86.793, ["music row"]),
  // earthquake_sf
  area("Marina District", "CA", 37.8037, -122.4368, ["marina district", "the marina"]),
  area("Mission District", "CA", 37.7599, -122.4148, ["mission district", "the mission", "mission dist"]),
  area("Financial District", "CA", 37.7946, -122.3999, ["financial district", "fidi", "financial dist"]),
  // hurricane_florida
  area("Miami Beach", "FL", 25.7907, -80.13, ["miami beach", "south beach"]),
  area("Fort Lauderdale", "FL", 26.1224, -80.1373, ["fort lauderdale", "ft lauderdale", "ft. lauderdale", "fort lauderdale beach", "ftl"]),
  area("West Palm Beach", "FL", 26.7153, -80.0534, ["west palm beach", "west palm", "wpb"]),
  // The scenario cities, for calls that name only the city (or its nickname).
  city("Los Angeles", "CA", 34.0522, -118.2437, ["los angeles", "la", "l.a.", "l a"]),
  city("Nashville", "TN", 36.1627, -86.7816, ["nashville", "nashville tn", "music city"]),
  city("San Francisco", "CA", 37.7749, -122.4194, ["san francisco", "sf", "s.f.", "san fran", "frisco"]),
  city("Miami", "FL", 25.7617, -80.1918, ["miami"]),
];

function area(name: string, state: string, latitude: number, longitude: number, aliases: string[]): GazetteerEntry {
  return { name, state, latitude, longitude, precision: "area", aliases };
}

function city(name: string, state: string, latitude: number, longitude: number, aliases: string[]): GazetteerEntry {
  return { name, state, latitude, longitude, precision: "city", aliases };
}
