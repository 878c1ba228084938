"use client";

import L from "leaflet";
import { useEffect } from "react";
import { useMap } from "react-leaflet";
import { labelsPane } from "./basemap";
import { allowedLabelRules } from "./street-map-labels";

/**
 * The centre's own street map (MAP_PMTILES_URL): a PMTiles archive of vector tiles (Protomaps'
 * basemap layers) drawn by protomaps-leaflet in the dashboard's dark theme, loaded only when
 * configured. Streets and areas are drawn under the markers; names in a second layer of the same
 * archive, in the labels' pane above them (basemap.ts: populated places, streets and water only).
 * An archive that cannot be read (a wrong URL, not a PMTiles file) calls `onFailed`: the map falls
 * back to its own outlines and says so.
 */
export function StreetMap({ url, onFailed }: { url: string; onFailed: () => void }) {
  const map = useMap();
  useEffect(() => {
    let current = true;
    const layers: L.Layer[] = [];
    void (async () => {
      const [{ leafletLayer, labelRules, paintRules }, { PMTiles }, { namedFlavor }] = await Promise.all([
        import("protomaps-leaflet"),
        import("pmtiles"),
        import("@protomaps/basemaps"),
      ]);
      const archive = new PMTiles(new URL(url, window.location.href).href);
      let attribution: string | undefined;
      let maxDataZoom: number;
      try {
        // Past the archive's deepest zoom its tiles are drawn larger (overzoom), never asked for.
        maxDataZoom = (await archive.getHeader()).maxZoom;
        const metadata = (await archive.getMetadata()) as { attribution?: unknown } | undefined;
        attribution = typeof metadata?.attribution === "string" ? metadata.attribution : undefined;
      } catch {
        if (current) onFailed();
        return;
      }
      if (!current) return;
      const flavor = namedFlavor("dark");
      layers.push(
        leafletLayer({ url: archive, maxDataZoom, paintRules: paintRules(flavor), labelRules: [], backgroundColor: flavor.background, attribution }) as unknown as L.Layer,
        leafletLayer({ url: archive, maxDataZoom, paintRules: [], labelRules: allowedLabelRules(labelRules(flavor, "en")), pane: labelsPane(map), attribution: "" }) as unknown as L.Layer,
      );
      for (const layer of layers) layer.addTo(map);
    })();
    return () => {
      current = false;
      for (const layer of layers) layer.remove();
    };
  }, [map, url, onFailed]);
  return null;
}
