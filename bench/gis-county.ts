/**
 * The synthetic county the GIS benches load (tests/support/gis-town.ts): 1,000,000 address points
 * (CSV, NENA field names) and about 100,000 centrelines (GeoJSON), with a sample of what callers
 * would say for each kind of answer, some in every form of the address test set. Run alone, it
 * writes the two files and `spoken.json` to a directory (bench/gis-vs-floor.sh):
 *
 *   npx tsx bench/gis-county.ts <directory>
 */
import { createWriteStream, writeFileSync } from "node:fs";
import path from "node:path";
import { once } from "node:events";
import {
  addressPointProperties, centrelines, crossingsOf, houses, type SpokenAddress, spokenCrossing, spokenHouse, type TownOptions,
} from "../tests/support/gis-town";
import { addressCase } from "../tests/support/address-forms";
import { random } from "../tests/support/calls";

export const COUNTY: TownOptions = { seed: 1, towns: 10, grid: 71, pointsPerSide: 5, centrelineOnlyEvery: 4, maxPoints: 1_000_000 };
const PER_KIND = Number(process.env.BENCH_SPOKEN_PER_KIND ?? 800);

export const COUNTY_FILES = { addressPoints: "address-points.csv", centrelines: "centrelines.geojson", spoken: "spoken.json" } as const;

async function write(stream: NodeJS.WritableStream, text: string) {
  if (!stream.write(text)) await once(stream, "drain");
}

/**
 * Writes the county's two files, and keeps a sample of what callers would say for each kind of
 * answer; `county` another size of it (fewer points: bench/location-candidates.ts's smaller runs).
 */
export async function writeCounty(directory: string, county: TownOptions = COUNTY) {
  const next = random(county.seed);
  const points = createWriteStream(path.join(directory, COUNTY_FILES.addressPoints));
  const lines = createWriteStream(path.join(directory, COUNTY_FILES.centrelines));
  await write(points, "Add_Number,St_PreDir,St_Name,St_PosTyp,Unit,Post_Comm,Post_Code,State,lon,lat\n");
  await write(lines, '{"type":"FeatureCollection","features":[\n');
  const all = [...centrelines(county)];
  const spoken: SpokenAddress[] = [];
  const keep = (address: SpokenAddress) => spoken.push(address);
  let pointCount = 0;
  for (const [i, line] of all.entries()) {
    await write(lines, `${i ? ",\n" : ""}${JSON.stringify({ type: "Feature", properties: line.properties, geometry: { type: "LineString", coordinates: line.coordinates } })}`);
    for (const house of houses(line, county.pointsPerSide, next)) {
      const stored = line.addressPoints && pointCount < county.maxPoints!;
      if (stored) {
        const properties = addressPointProperties(line, house);
        await write(points, `${house.number},${properties.St_PreDir},${properties.St_Name},${properties.St_PosTyp},${properties.Unit},${properties.Post_Comm},${properties.Post_Code},IL,${house.lon.toFixed(7)},${house.lat.toFixed(7)}\n`);
        pointCount++;
      }
      // About PER_KIND of each kind, spread over the whole county.
      if (next() * all.length * 12 > PER_KIND * 4) continue;
      if (!stored) keep(spokenHouse(line, house, "interpolated", next));
      else if (house.unit || next() < 0.5) keep(spokenHouse(line, house, "address_point", next));
      else if (line.eastWest) keep(spokenHouse(line, house, "address_point", next, { typo: true }));
      // A few in the forms people write and say them (tests/support/address-forms.ts): "in <town>", no commas, words around, numbers in words.
      if (next() < 0.05) {
        const { forms, latitude, longitude, precision } = addressCase(line, house, house.unit ? "unit" : "plain", stored ? "address_point" : "interpolated", next);
        for (const text of Object.values(forms)) keep({ text, latitude, longitude, precision });
      }
    }
  }
  for (const { line, crossing } of crossingsOf(all, county).filter(() => next() * 100_000 < PER_KIND * 3)) keep(spokenCrossing(line, crossing, next));
  await write(lines, "\n]}\n");
  points.end();
  lines.end();
  await Promise.all([once(points, "finish"), once(lines, "finish")]);
  return { pointCount, lineCount: all.length, spoken };
}

async function main(directory: string | undefined) {
  if (!directory) {
    console.error("usage: npx tsx bench/gis-county.ts <directory>");
    process.exit(2);
  }
  const county = await writeCounty(directory);
  writeFileSync(path.join(directory, COUNTY_FILES.spoken), JSON.stringify(county.spoken));
  console.error(`county: ${county.pointCount} address points, ${county.lineCount} centrelines, ${county.spoken.length} spoken addresses in ${directory}`);
}

if (require.main === module) {
  main(process.argv[2]).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
