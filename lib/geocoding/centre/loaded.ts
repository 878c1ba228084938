import { type Db, getDb } from "../../db/client";
import { log } from "../../log";
import { existingPart, processPart } from "../../process-parts";
import { type GeocodeResult, GeocoderUnavailableError } from "../types";
import type { AddressPointRow, RoadCentrelineRow } from "./fields";
import { geocodeWithCentreIndex, type StreetsNotInData, streetsNotInCentreIndex } from "./geocode";
import { CentreIndex } from "./centre-index";
import { type RoadNetwork, RoadNetworkBuilder } from "./road-network";

/** Another instance's import is noticed within this long (one small query per period, not per call). */
const VERSION_CHECK_MS = 10_000;
/** Rows per read while the index is built: the tables are never read as one result. */
const PAGE = 50_000;
/** Building the index at 1,000,000 address points takes about 15 s (docs/performance.md). */
const LOAD_TIMEOUT_MS = 10 * 60 * 1000;

interface Loaded {
  version: string;
  index: CentreIndex | undefined;
  /** The centrelines as a road network (travel times, docs/units.md); undefined without drivable centrelines. */
  roads: RoadNetwork | undefined;
  checkedAt: number;
}

interface CentreState {
  /** The index last built, with the version it was read at. */
  held?: Loaded;
  /** A build under way: the first one, or a rebuild after a newer import. */
  building?: Promise<Loaded>;
  /** The freshness check (or the rebuild it asked for) failed: logged once, until it succeeds again. */
  checkFailing?: boolean;
}

const PART = "centre-gis-index";
const state = () => processPart<CentreState>(PART, () => ({}));

type Reader = Pick<Db, "$queryRaw">;

/** What the GIS tables hold, as a text that changes with every import (each layer's count and time). */
export async function gisVersion(db: Reader): Promise<string> {
  const [row] = await db.$queryRaw<{ version: string | null }[]>`
    SELECT string_agg(layer || ':' || features || ':' || extract(epoch FROM imported_at), ',' ORDER BY layer) AS version FROM gis_layers`;
  return row.version ?? "";
}

/** The rows of `rows`, each handed to `see` on its way. */
async function* passing<Row>(rows: AsyncIterable<Row>, see: (row: Row) => void): AsyncGenerator<Row> {
  for await (const row of rows) {
    see(row);
    yield row;
  }
}

async function* pages<Row extends { id: bigint }>(read: (after: bigint) => Promise<Row[]>): AsyncGenerator<Row> {
  let after = BigInt(0);
  for (;;) {
    const rows = await read(after);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}

/**
 * The index of what the tables hold, read page by page in one snapshot (an import committing
 * meanwhile is not half seen), with the version it was read at.
 */
async function load(): Promise<Loaded> {
  const started = Date.now();
  const db = await getDb();
  const loaded = await db.$transaction(
    async (tx) => {
      const version = await gisVersion(tx);
      if (!version) return { version, index: undefined, roads: undefined, checkedAt: Date.now() };
      const [{ count }] = await tx.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM gis_address_points`;
      const points = pages<AddressPointRow & { id: bigint }>((after) => tx.$queryRaw`
        SELECT id, add_number AS "addNumber", addnum_pre AS "addNumPre", addnum_suf AS "addNumSuf", st_predir AS "stPreDir",
          st_pretyp AS "stPreTyp", st_name AS "stName", st_postyp AS "stPosTyp", st_posdir AS "stPosDir", unit, community,
          post_code AS "postCode", state, longitude, latitude
        FROM gis_address_points WHERE id > ${after} ORDER BY id LIMIT ${PAGE}`);
      const lines = pages<RoadCentrelineRow & { id: bigint }>((after) => tx.$queryRaw`
        SELECT id, fromaddr_l AS "fromAddrL", toaddr_l AS "toAddrL", fromaddr_r AS "fromAddrR", toaddr_r AS "toAddrR",
          parity_l AS "parityL", parity_r AS "parityR", st_predir AS "stPreDir", st_pretyp AS "stPreTyp", st_name AS "stName",
          st_postyp AS "stPosTyp", st_posdir AS "stPosDir", community, post_code AS "postCode", state, coordinates,
          road_class AS "roadClass", speed_limit AS "speedLimit", one_way AS "oneWay"
        FROM gis_centrelines WHERE id > ${after} ORDER BY id LIMIT ${PAGE}`);
      // One read of the centrelines feeds both the index and the road network.
      const roads = new RoadNetworkBuilder();
      const index = await CentreIndex.build(points, count, passing(lines, (line) => roads.add(line)));
      return { version, index, roads: roads.build(), checkedAt: Date.now() };
    },
    { isolationLevel: "RepeatableRead", timeout: LOAD_TIMEOUT_MS, maxWait: LOAD_TIMEOUT_MS },
  );
  if (loaded.index) {
    const { index } = loaded;
    log.info(
      { addressPoints: index.pointCount, centrelines: index.lineCount, streets: index.streets.length, roadSegments: loaded.roads?.segmentCount ?? 0, ms: Date.now() - started },
      "centre GIS data loaded",
    );
  }
  return loaded;
}

/** Builds the index; once built (and not forgotten meanwhile), it is the one held. */
function build(current: CentreState): Promise<Loaded> {
  const building: Promise<Loaded> = load().then(
    (loaded) => {
      if (current.building === building) {
        current.held = loaded;
        current.building = undefined;
      }
      return loaded;
    },
    (error: unknown) => {
      if (current.building === building) current.building = undefined;
      throw error;
    },
  );
  current.building = building;
  return building;
}

/**
 * The centre's GIS index, built once per process and again only when a layer was imported
 * (here: at once; by another instance: noticed within VERSION_CHECK_MS). Undefined without data.
 * Only the first build needs the database: once built, the index answers from what it holds while
 * the freshness check (or the rebuild it asks for) cannot read the database, which is logged once
 * and tried again at the next interval (docs/geocoding.md, "The centre's GIS data", "Lookup").
 */
export async function getCentreIndex(): Promise<CentreIndex | undefined> {
  return (await currentData()).index;
}

/**
 * The centre's centrelines as a road network (docs/units.md, "Travel time on the roads"), built
 * and rebuilt with the index (getCentreIndex); undefined without drivable centrelines, or while
 * the database cannot be read before a first build (travel times then fall back to straight lines).
 */
export async function getRoadNetwork(): Promise<RoadNetwork | undefined> {
  try {
    return (await currentData()).roads;
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    log.warn({ err: error.message }, "centre GIS data unreadable: travel times by straight line");
    return undefined;
  }
}

async function currentData(): Promise<Loaded> {
  const current = state();
  const held = current.held;
  if (!held) {
    try {
      return await (current.building ?? build(current));
    } catch (error) {
      // Nothing held and the database could not be read: the next call tries again, and this one is worth a retry.
      throw new GeocoderUnavailableError(`Centre GIS data could not be read: ${(error as Error).message}`, { cause: error });
    }
  }
  // A rebuild under way: its data when it succeeds, else what is held.
  if (current.building) return current.building.catch(() => held);
  if (Date.now() - held.checkedAt <= VERSION_CHECK_MS) return held;
  held.checkedAt = Date.now();
  let answer = held;
  try {
    if ((await gisVersion(await getDb())) !== held.version) answer = await build(current);
  } catch (error) {
    if (!current.checkFailing) {
      log.warn({ err: (error as Error).message }, "centre GIS data could not be checked for a newer import: answering from the index held");
    }
    current.checkFailing = true;
    return held;
  }
  if (current.checkFailing) log.info("centre GIS data readable again");
  current.checkFailing = false;
  return answer;
}

/** After an import in this process: the next geocode builds the index from the new data. */
export function forgetCentreIndex(): void {
  const current = existingPart<CentreState>(PART);
  if (!current) return;
  current.held = undefined;
  current.building = undefined;
}

/** The centre's GIS data as a geocoder: null when there is none or it does not know the place. */
export async function geocodeWithCentreData(text: string): Promise<GeocodeResult | null> {
  const index = await getCentreIndex();
  return index ? geocodeWithCentreIndex(index, text) : null;
}

/** The streets a location names that the centre's GIS does not have, in a community it covers (undefined: none, or no GIS data). */
export async function streetsNotInCentreData(text: string): Promise<StreetsNotInData | undefined> {
  const index = await getCentreIndex();
  return index ? streetsNotInCentreIndex(index, text) : undefined;
}

/**
 * The index for the simulator and exercises (docs/simulation.md): undefined without data, or when
 * the database cannot be read just now; the scenario street set then places the calls, and
 * storing them says what is wrong with the database.
 */
export async function centreIndexIfReadable(): Promise<CentreIndex | undefined> {
  try {
    return await getCentreIndex();
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    log.warn({ err: error.message }, "centre GIS data unreadable: generated calls placed on the scenario street set");
    return undefined;
  }
}
