import { readFile } from "node:fs/promises";
import { log } from "../log";
import { encodePlaceIndex, PLACE_INDEX_FILE, PlaceIndex, sourceVersions, writePlaceIndexFile } from "./place-index-file";
import { placesFromSources } from "./place-sources";

export { PlaceIndex } from "./place-index-file";

/**
 * The place index: the file `npm install` and `npm run build` generate (place-index-file.ts),
 * read once, in a few milliseconds. Where it is missing or stale (made from other package
 * versions, an older format), it is made from the source packages now (the slow path, about
 * 0.6 s and 180 MB at its peak, once per process) and written for the next start; a failed write
 * (a read-only deployment) only costs that again next time.
 */
async function loadPlaceIndex(): Promise<PlaceIndex> {
  const sources = sourceVersions();
  let problem: string;
  try {
    const decoded = PlaceIndex.decode(await readFile(PLACE_INDEX_FILE), sources);
    if (decoded instanceof PlaceIndex) return decoded;
    problem = decoded;
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  log.warn({ file: PLACE_INDEX_FILE, problem }, "place index unusable, making it from the source packages");
  const bytes = encodePlaceIndex(await placesFromSources(), sources);
  await writePlaceIndexFile(PLACE_INDEX_FILE, bytes).catch((error: unknown) =>
    log.warn({ err: error instanceof Error ? error.message : String(error) }, "could not write the place index"),
  );
  return PlaceIndex.decode(bytes, sources) as PlaceIndex;
}

let index: Promise<PlaceIndex> | undefined;

export function getPlaceIndex(): Promise<PlaceIndex> {
  if (!index) {
    index = loadPlaceIndex();
    // A failed load (package missing) is reported, and tried again next time.
    index.catch(() => {
      index = undefined;
    });
  }
  return index;
}
