/**
 * `npm run gis:import -- <file> [--layer address_points|centrelines]`: replaces one layer of the
 * centre's GIS data with a CSV, GeoJSON or FlatGeobuf file (docs/geocoding.md, "The centre's GIS data"), on the
 * configured database (DATABASE_URL, else the embedded one under DATA_DIR; the server must not be
 * running on an embedded database). A bad feature prints its line or feature and field, exit 1.
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadEnvConfig } from "@next/env";
import { getConfig } from "../lib/config";
import { closeDb, migrateDatabase } from "../lib/db/client";
import { DomainError } from "../lib/domain-error";
import { GIS_LAYERS, type GisLayerName } from "../lib/geocoding/centre/fields";
import { importGisLayer } from "../lib/geocoding/centre/import";
import { formatOf } from "../lib/geocoding/centre/read";

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { layer: { type: "string" } } });
  const [file] = positionals;
  const layer = values.layer as GisLayerName | undefined;
  const format = file ? formatOf(file) : undefined;
  if (!file || !format || (layer && !GIS_LAYERS.includes(layer))) {
    console.error(`usage: npm run gis:import -- <file.csv|file.geojson|file.fgb> [--layer ${GIS_LAYERS.join("|")}]`);
    return 2;
  }
  loadEnvConfig(process.cwd());
  await migrateDatabase(getConfig());
  try {
    const started = Date.now();
    // No actor and no audit row: whoever runs this holds the database's own credentials.
    const result = await importGisLayer({ format, chunks: createReadStream(file), sourceName: path.basename(file), layer });
    console.log(`${result.layer}: ${result.features} features imported from ${path.basename(file)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    await closeDb();
  }
}

void main().then((code) => {
  process.exitCode = code;
});
