import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/to-call-record";
import { withDatabase } from "../db/with-database";
import { CLOSED_STATUSES, OPEN_STATUSES } from "../calls/workflow";
import { invalidParameter } from "../domain-error";
import type { QueryValues } from "../query-parameters";
import type { exerciseVisibilityParameters, mapQueryParameters, MapView } from "./schema";
import { andShown, type ExerciseVisibility } from "./exercise-visibility";

/**
 * The map, clustered by the database on a grid of square cells about CELL_PIXELS wide at the
 * requested zoom: one row per occupied cell, so the answer grows with the viewport, never with the
 * stored calls. Plain SQL (floor and GROUP BY) runs the same on PostgreSQL and PGlite, where
 * PostGIS is not available (docs/dashboard.md, "Map"). Open calls come from the index
 * (status, latitude, longitude, severity, id) alone; closed calls only from the last hours.
 */

/** Cells are about this many screen pixels wide. */
const CELL_PIXELS = 64;
/**
 * From this zoom every call is its own marker (street level), up to MAX_MARKERS, even where several
 * share one point (a town centre, one address): a cluster there could never be zoomed apart.
 */
export const MARKER_ZOOM = 16;
export const MAX_MARKERS = 1000;
/** A request may not ask for more cells than a very large screen holds. */
const MAX_CELLS = 20_000;

export interface MapRequest {
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
  closedHours: number;
  exercises: ExerciseVisibility;
}

/** The map's query as a request: the viewport is required, closed_hours defaults to `closedHours`. */
export function mapRequestFrom(
  values: QueryValues<typeof mapQueryParameters & typeof exerciseVisibilityParameters>,
  closedHours: number,
): MapRequest {
  const { west, south, east, north, zoom } = values;
  if (west === undefined || south === undefined || east === undefined || north === undefined || zoom === undefined) {
    throw invalidParameter("Invalid parameter", "west, south, east, north and zoom are required");
  }
  return { west, south, east, north, zoom, closedHours: values.closed_hours ?? closedHours, exercises: values.exercises ?? "show" };
}

/** Degrees of longitude per cell: a 256-pixel tile spans 360 / 2^zoom degrees. */
export function cellDegrees(zoom: number): number {
  return 360 / 2 ** zoom / (256 / CELL_PIXELS);
}

/** One occupied cell of a map (calls or incidents): the columns of `cellColumns`. */
export interface CellRow {
  count: number;
  open: number;
  critical: number;
  high: number;
  moderate: number;
  latitude: number;
  longitude: number;
  west: number;
  south: number;
  east: number;
  north: number;
  onlyId: string | null;
}

export const openList = Prisma.join(OPEN_STATUSES.map((status) => Prisma.sql`${status}`));
export const closedList = Prisma.join(CLOSED_STATUSES.map((status) => Prisma.sql`${status}`));

/** A cell's CellRow, aggregated over the rows of `shown` (id, latitude, longitude, severity, status). */
export const cellColumns = Prisma.sql`count(*)::int AS count,
      count(*) FILTER (WHERE status IN (${openList}))::int AS open,
      count(*) FILTER (WHERE severity = 'critical')::int AS critical,
      count(*) FILTER (WHERE severity = 'high')::int AS high,
      count(*) FILTER (WHERE severity NOT IN ('critical', 'high'))::int AS moderate,
      avg(latitude)::float8 AS latitude, avg(longitude)::float8 AS longitude,
      min(longitude)::float8 AS west, min(latitude)::float8 AS south,
      max(longitude)::float8 AS east, max(latitude)::float8 AS north,
      CASE WHEN count(*) = 1 THEN min(id COLLATE "C") END AS "onlyId"`;

/**
 * Cells of a single item become markers (all of them at street level), as many as MAX_MARKERS;
 * the rest stay clusters.
 */
export function markersAndClusters<Row extends CellRow>(cells: readonly Row[]): { markerIds: string[]; clusterRows: Row[] } {
  const markerIds: string[] = [];
  const clusterRows: Row[] = [];
  for (const row of cells) {
    if (row.onlyId !== null && markerIds.length < MAX_MARKERS) markerIds.push(row.onlyId);
    else clusterRows.push(row);
  }
  return { markerIds, clusterRows };
}

/** A cluster as both maps answer it. */
export function clusterOf(row: CellRow) {
  const { latitude, longitude, count, open, critical, high, moderate } = row;
  return { latitude, longitude, count, open, critical, high, moderate, bounds: [row.west, row.south, row.east, row.north] as [number, number, number, number] };
}

/** The viewport clamped to the world, checked against MAX_CELLS. */
export function checkedViewport(request: MapRequest): MapRequest {
  const west = Math.max(-180, request.west);
  const east = Math.min(180, request.east);
  const { south, north, zoom } = request;
  if (west > east || south > north) throw invalidParameter("Invalid parameter", "west must not exceed east, nor south north");
  const cell = cellDegrees(zoom);
  if (((east - west) / cell) * ((north - south) / cell) > MAX_CELLS) {
    throw invalidParameter("Invalid parameter", "the viewport is too large for this zoom");
  }
  return { ...request, west, east };
}

/** The GROUP BY of a map's cells at `zoom`: grid cells, or one row per item at street level. */
export function cellGrouping(zoom: number): Prisma.Sql {
  if (zoom >= MARKER_ZOOM) return Prisma.sql`id`;
  const grid = cellDegrees(zoom);
  return Prisma.sql`floor(longitude / ${grid}), floor(latitude / ${grid})`;
}

/** One row per occupied grid cell of the viewport. */
export function mapCellsSql(request: MapRequest): Prisma.Sql {
  const { west, south, east, north } = checkedViewport(request);
  const inBox = Prisma.sql`latitude BETWEEN ${south} AND ${north} AND longitude BETWEEN ${west} AND ${east}${andShown(request.exercises)}`;
  return Prisma.sql`
    WITH shown AS (
      SELECT id, latitude, longitude, severity, status FROM calls
      WHERE status IN (${openList}) AND ${inBox}
      UNION ALL
      SELECT id, latitude, longitude, severity, status FROM calls
      WHERE status IN (${closedList}) AND changed_at >= now() - make_interval(hours => ${request.closedHours}::int) AND ${inBox}
    )
    SELECT ${cellColumns}
    FROM shown
    GROUP BY ${cellGrouping(request.zoom)}`;
}

export async function readMapFrom(db: Db, request: MapRequest): Promise<MapView> {
  const cells = await db.$queryRaw<CellRow[]>(mapCellsSql(request));
  const { markerIds, clusterRows } = markersAndClusters(cells);
  const markers =
    markerIds.length === 0
      ? []
      : await db.$queryRaw<ListedCall[]>(Prisma.sql`
          SELECT ${selectList} FROM calls c WHERE c.id IN (${Prisma.join(markerIds)}) ORDER BY c.occurred_at DESC, c.id`);
  return {
    zoom: request.zoom,
    cell_degrees: cellDegrees(request.zoom),
    clusters: clusterRows.map(clusterOf),
    markers: markers.map(toCallRecord),
    shown: cells.reduce((sum, row) => sum + row.count, 0),
  };
}

/** GET /api/live/map. */
export function readMap(request: MapRequest): Promise<MapView> {
  return withDatabase((db) => readMapFrom(db, request));
}
