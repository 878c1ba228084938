/**
 * `npx tsx scripts/place-index.ts`: generates the geocoder's place index
 * (lib/geocoding/place-index-file.ts) from the source packages installed in the current
 * directory. `npm install` (scripts/postinstall.mjs) and `npm run build` (scripts/build.ts) run
 * it. The file is generated, not committed: about 3 MB, and it belongs to the installed versions.
 */
import path from "node:path";
import { encodePlaceIndex, PLACE_INDEX_FILE, sourceVersions, writePlaceIndexFile } from "../lib/geocoding/place-index-file";
import { placesFromSources } from "../lib/geocoding/place-sources";

async function main(): Promise<void> {
  const bytes = encodePlaceIndex(await placesFromSources(), sourceVersions());
  await writePlaceIndexFile(PLACE_INDEX_FILE, bytes);
  console.log(`Place index: ${path.relative(process.cwd(), PLACE_INDEX_FILE)} (${(bytes.length / 1024 / 1024).toFixed(1)} MB).`);
}

main().catch((error: unknown) => {
  console.error(`Place index: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
