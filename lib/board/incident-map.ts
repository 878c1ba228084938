import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withDatabase } from "../db/with-database";
import { readLiveIncidents } from "./incident-queue";
import { type CellRow, cellColumns, cellDegrees, cellGrouping, checkedViewport, closedList, clusterOf, type MapRequest, markersAndClusters, openList } from "./call-map";
import type { IncidentMapView } from "./schema";
import { andIncidentShown } from "./exercise-visibility";

/**
 * The dashboard's map of incidents (docs/dashboard.md, "Incidents"): the calls map's grid
 * (lib/board/call-map.ts) over incidents instead of calls. One row per occupied cell with its incidents,
 * their calls and severities; an incident alone in its cell (every one from zoom 16, up to
 * MAX_MARKERS) is a marker, sized by its calls on the page. Open incidents come from the index
 * (status, latitude, longitude, severity, call_count, id) alone; closed ones only from the last hours.
 */

export function incidentMapCellsSql(request: MapRequest): Prisma.Sql {
  const { west, south, east, north } = checkedViewport(request);
  const inBox = Prisma.sql`i.latitude BETWEEN ${south} AND ${north} AND i.longitude BETWEEN ${west} AND ${east}${andIncidentShown(request.exercises, "i")}`;
  return Prisma.sql`
    WITH shown AS (
      SELECT i.id, i.latitude, i.longitude, i.severity, i.status, i.call_count FROM incidents i
      WHERE i.status IN (${openList}) AND ${inBox}
      UNION ALL
      SELECT i.id, i.latitude, i.longitude, i.severity, i.status, i.call_count FROM incidents i
      WHERE i.status IN (${closedList}) AND i.updated_at >= now() - make_interval(hours => ${request.closedHours}::int) AND ${inBox}
    )
    SELECT ${cellColumns}, sum(call_count)::int AS calls
    FROM shown
    GROUP BY ${cellGrouping(request.zoom)}`;
}

export async function readIncidentMapFrom(db: Db, request: MapRequest): Promise<IncidentMapView> {
  const cells = await db.$queryRaw<(CellRow & { calls: number })[]>(incidentMapCellsSql(request));
  const { markerIds, clusterRows } = markersAndClusters(cells);
  const incidents = await readLiveIncidents(db, markerIds);
  return {
    zoom: request.zoom,
    cell_degrees: cellDegrees(request.zoom),
    clusters: clusterRows.map((row) => ({ ...clusterOf(row), calls: row.calls })),
    // An incident merged away between the two reads is left out; the next refresh shows the merge.
    markers: markerIds.flatMap((id) => incidents.get(id) ?? []),
    shown: cells.reduce((sum, row) => sum + row.count, 0),
    shown_calls: cells.reduce((sum, row) => sum + row.calls, 0),
  };
}

/** GET /api/live/incident-map. */
export function readIncidentMap(request: MapRequest): Promise<IncidentMapView> {
  return withDatabase((db) => readIncidentMapFrom(db, request));
}
