import { getDb } from "../../db/client";
import { invalidParameter } from "../../domain-error";
import { processPart } from "../../process-parts";
import type { QueryValues } from "../../query-parameters";
import {
  ADDRESS_NUMBERS_FROM_ZOOM, type Box, type MapArea, MAX_ADDRESS_NUMBERS, MAX_BOX_PIXELS, MAX_COMMUNITIES, MAX_STREET_LINES, type MapStreets,
  type mapStreetsQueryParameters, STREETS_FROM_ZOOM,
} from "../map-streets-schema";
import { gisVersion } from "./loaded";
import { joinLines, simplifyLine } from "./street-lines";

/**
 * The centre's own street map (docs/dashboard.md, "Street map"), read from its GIS tables: the
 * centrelines of a box through the GiST index on their bounds, joined per street and simplified
 * to a pixel at the zoom, and from ADDRESS_NUMBERS_FROM_ZOOM the box's house numbers through the
 * index on their points; the centre's extent and communities for the map's first view and its
 * region buttons. Nothing of the stored calls is read. Answers are kept in memory per GIS version
 * (gis_layers: a new import makes them all stale), the most recent CACHED_ANSWERS of them.
 */

const CACHED_ANSWERS = 256;

interface Cache {
  version: string;
  streets: Map<string, MapStreets>;
  area?: MapArea;
}

const cache = () => processPart<Cache>("centre-street-map", () => ({ version: "", streets: new Map() }));

/** The cache, emptied when the GIS data changed since it was filled. */
async function currentCache(): Promise<Cache> {
  const version = await gisVersion(await getDb());
  const current = cache();
  if (current.version !== version) {
    current.version = version;
    current.streets.clear();
    current.area = undefined;
  }
  return current;
}

/** The box's width and height in pixels at `zoom` (Web Mercator, 256-pixel tiles). */
function boxPixels([west, south, east, north]: Box, zoom: number): [number, number] {
  const world = 256 * 2 ** zoom;
  const y = (latitude: number) => {
    const sin = Math.sin((Math.max(-85.05, Math.min(85.05, latitude)) * Math.PI) / 180);
    return (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * world;
  };
  return [((east - west) / 360) * world, y(south) - y(north)];
}

/** GET /api/map/streets: the box's streets (and house numbers close in), simplified for the zoom. */
export async function mapStreets(values: QueryValues<typeof mapStreetsQueryParameters>): Promise<MapStreets> {
  const { zoom } = values;
  // Four numbers, west < east and south < north: the parameter's schema holds them to it.
  const bbox = values.bbox as Box;
  const [width, height] = boxPixels(bbox, zoom);
  if (Math.max(width, height) > MAX_BOX_PIXELS) {
    throw invalidParameter("Invalid bbox", `bbox spans ${Math.ceil(Math.max(width, height))} pixels at zoom ${zoom}: at most ${MAX_BOX_PIXELS}`);
  }
  if (zoom < STREETS_FROM_ZOOM) return { zoom, streets: [], addresses: [], truncated: false };
  const current = await currentCache();
  const key = `${zoom}:${bbox.join(",")}`;
  const kept = current.streets.get(key);
  if (kept) {
    current.streets.delete(key);
    current.streets.set(key, kept);
    return kept;
  }
  const answer = await readStreets(bbox, zoom);
  current.streets.set(key, answer);
  if (current.streets.size > CACHED_ANSWERS) current.streets.delete(current.streets.keys().next().value!);
  return answer;
}

async function readStreets([west, south, east, north]: Box, zoom: number): Promise<MapStreets> {
  const db = await getDb();
  const lines = await db.$queryRaw<{ name: string; coordinates: number[] }[]>`
    SELECT concat_ws(' ', NULLIF(st_predir, ''), NULLIF(st_pretyp, ''), st_name, NULLIF(st_postyp, ''), NULLIF(st_posdir, '')) AS name, coordinates
    FROM gis_centrelines
    WHERE bounds && box(point(${west}, ${south}), point(${east}, ${north}))
    ORDER BY id LIMIT ${MAX_STREET_LINES + 1}`;
  const points =
    zoom < ADDRESS_NUMBERS_FROM_ZOOM
      ? []
      : await db.$queryRaw<{ number: string; longitude: number; latitude: number }[]>`
          SELECT concat(addnum_pre, add_number, addnum_suf) AS number, longitude, latitude
          FROM gis_address_points
          WHERE point(longitude, latitude) <@ box(point(${west}, ${south}), point(${east}, ${north}))
          ORDER BY id LIMIT ${MAX_ADDRESS_NUMBERS + 1}`;
  const byName = new Map<string, number[][]>();
  for (const line of lines.slice(0, MAX_STREET_LINES)) {
    const same = byName.get(line.name);
    if (same) same.push(line.coordinates);
    else byName.set(line.name, [line.coordinates]);
  }
  const streets = [...byName].flatMap(([name, group]) => joinLines(group).map((line) => ({ name, coordinates: simplifyLine(line, zoom) })));
  // The units of one building share its number and point: one number drawn.
  const seen = new Set<string>();
  const addresses = points.slice(0, MAX_ADDRESS_NUMBERS).filter((point) => {
    const key = `${point.number}@${point.longitude},${point.latitude}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { zoom, streets, addresses, truncated: lines.length > MAX_STREET_LINES || points.length > MAX_ADDRESS_NUMBERS };
}

/** GET /api/map/area: the centre's extent and its largest communities, each with its bounds. */
export async function mapArea(): Promise<MapArea> {
  const current = await currentCache();
  if (current.area) return current.area;
  const db = await getDb();
  // Grouping sets: each community, and all (community null and grouped: the extent).
  const rows = await db.$queryRaw<{ community: string | null; everything: boolean; features: number; west: number; south: number; east: number; north: number }[]>`
    SELECT community, GROUPING(community) = 1 AS everything, count(*)::int AS features,
      min(west) AS west, min(south) AS south, max(east) AS east, max(north) AS north
    FROM (
      SELECT NULLIF(trim(community), '') AS community, (bounds[1])[0] AS west, (bounds[1])[1] AS south, (bounds[0])[0] AS east, (bounds[0])[1] AS north
      FROM gis_centrelines WHERE bounds IS NOT NULL
      UNION ALL
      SELECT NULLIF(trim(community), ''), longitude, latitude, longitude, latitude FROM gis_address_points
    ) AS features
    GROUP BY GROUPING SETS ((community), ())`;
  const box = (row: (typeof rows)[number]): Box => [row.west, row.south, row.east, row.north];
  const all = rows.find((row) => row.everything);
  const communities = rows
    .filter((row) => !row.everything && row.community !== null)
    .sort((a, b) => b.features - a.features || a.community!.localeCompare(b.community!))
    .slice(0, MAX_COMMUNITIES)
    .map((row) => ({ name: row.community!, bounds: box(row) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  current.area = { extent: all && all.features > 0 ? box(all) : null, communities };
  return current.area;
}
