import { createReadStream } from "node:fs";
import path from "node:path";
import { CentreIndex } from "@/lib/geocoding/centre/centre-index";
import { addressPointRow, type AddressPointRow, centrelineRow, type CentrelineRow } from "@/lib/geocoding/centre/fields";
import { type GisFormat, readFeatures } from "@/lib/geocoding/centre/read";

export const GIS_FIXTURES = path.join(__dirname, "..", "fixtures", "gis");

async function rows<Row>(format: GisFormat, file: string, toRow: (input: Parameters<typeof addressPointRow>[0]) => Row): Promise<Row[]> {
  const found: Row[] = [];
  for await (const feature of readFeatures(format, createReadStream(path.join(GIS_FIXTURES, file)) as AsyncIterable<Uint8Array>)) found.push(toRow(feature));
  return found;
}

/** The synthetic county of tests/fixtures/gis read into the centre's index without a database (the import's own readers and checks). */
export async function fixtureIndex(): Promise<CentreIndex> {
  const points = await rows<AddressPointRow>("csv", "address-points.csv", addressPointRow);
  const lines = await rows<CentrelineRow>("geojson", "centrelines.geojson", centrelineRow);
  return CentreIndex.build(points, points.length, lines);
}
