import L from "leaflet";

/**
 * What the map is drawn on (docs/dashboard.md, "Tiles"): the centre's own PMTiles street map when
 * MAP_PMTILES_URL names one, else raster tiles from NEXT_PUBLIC_MAP_TILE_URL (`offline`: the
 * map's own outlines only).
 */
export interface Basemap {
  tileUrl: string;
  streetMapUrl?: string;
}

/** The pane of every place and street name: above the incident markers (600), below tooltips (650). */
export const LABELS_PANE = "map-labels";
const LABELS_Z_INDEX = "620";

/**
 * The labels' pane, made on first use: names are drawn over the markers, never hidden under them,
 * and take no clicks (a marker under a name is still the one clicked).
 */
export function labelsPane(map: L.Map): string {
  if (!map.getPane(LABELS_PANE)) {
    const pane = map.createPane(LABELS_PANE);
    pane.style.zIndex = LABELS_Z_INDEX;
    pane.style.pointerEvents = "none";
  }
  return LABELS_PANE;
}
