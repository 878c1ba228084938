import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withCallStore } from "../calls/store";
import { readLiveIncidents } from "./incidents";
import { cellDegrees, checkedViewport, closedList, MARKER_ZOOM, MAX_MARKERS, type MapRequest, openList } from "./map";
import type { IncidentMapView } from "./schema";
import { andIncidentShown } from "./visibility";

/**
 * The dashboard's map of incidents (docs/dashboard.md, "Incidents"): the calls map's grid
 * (lib/live/map.ts) over incidents instead of calls. One row per occupied cell with its incidents,
 * their calls and severities; an incident alone in its cell (every one from zoom 16, up to
 * MAX_MARKERS) is a marker, sized by its calls on the page. Open incidents come from the index
 * (status, latitude, longitude, severity, call_count, id) alone; closed ones only from the last hours.
 */

interface CellRow {
  count: number;
  open: number;
  calls: number;
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

export function incidentMapCellsSql(request: MapRequest): Prisma.Sql {
  const { west, south, east, north, zoom } = checkedViewport(request);
  const grid = zoom >= MARKER_ZOOM ? 1e-9 : cellDegrees(zoom);
  const inBox = Prisma.sql`i.latitude BETWEEN ${south} AND ${north} AND i.longitude BETWEEN ${west} AND ${east}${andIncidentShown(request.exercises, "i")}`;
  return Prisma.sql`
    WITH shown AS (
      SELECT i.id, i.latitude, i.longitude, i.severity, i.status, i.call_count FROM incidents i
      WHERE i.status IN (${openList}) AND ${inBox}
      UNION ALL
      SELECT i.id, i.latitude, i.longitude, i.severity, i.status, i.call_count FROM incidents i
      WHERE i.status IN (${closedList}) AND i.updated_at >= now() - make_interval(hours => ${request.closedHours}::int) AND ${inBox}
    )
    SELECT count(*)::int AS count,
      count(*) FILTER (WHERE status IN (${openList}))::int AS open,
      sum(call_count)::int AS calls,
      count(*) FILTER (WHERE severity = 'critical')::int AS critical,
      count(*) FILTER (WHERE severity = 'high')::int AS high,
      count(*) FILTER (WHERE severity NOT IN ('critical', 'high'))::int AS moderate,
      avg(latitude)::float8 AS latitude, avg(longitude)::float8 AS longitude,
      min(longitude)::float8 AS west, min(latitude)::float8 AS south,
      max(longitude)::float8 AS east, max(latitude)::float8 AS north,
      CASE WHEN count(*) = 1 THEN min(id COLLATE "C") END AS "onlyId"
    FROM shown
    GROUP BY floor(longitude / ${grid}), floor(latitude / ${grid})`;
}

export async function readIncidentMapFrom(db: Db, request: MapRequest): Promise<IncidentMapView> {
  const cells = await db.$queryRaw<CellRow[]>(incidentMapCellsSql(request));
  const markerIds: string[] = [];
  const clusters: IncidentMapView["clusters"] = [];
  let shown = 0;
  let shownCalls = 0;
  for (const row of cells) {
    shown += row.count;
    shownCalls += row.calls;
    if (row.onlyId !== null && markerIds.length < MAX_MARKERS) {
      markerIds.push(row.onlyId);
      continue;
    }
    clusters.push({
      latitude: row.latitude,
      longitude: row.longitude,
      count: row.count,
      open: row.open,
      calls: row.calls,
      critical: row.critical,
      high: row.high,
      moderate: row.moderate,
      bounds: [row.west, row.south, row.east, row.north],
    });
  }
  const incidents = await readLiveIncidents(db, markerIds);
  return {
    zoom: request.zoom,
    cell_degrees: cellDegrees(request.zoom),
    clusters,
    // An incident merged away between the two reads is left out; the next refresh shows the merge.
    markers: markerIds.flatMap((id) => incidents.get(id) ?? []),
    shown,
    shown_calls: shownCalls,
  };
}

/** GET /api/live/incident-map. */
export function readIncidentMap(request: MapRequest): Promise<IncidentMapView> {
  return withCallStore((db) => readIncidentMapFrom(db, request));
}
