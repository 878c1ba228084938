"use client";

import type { FeatureCollection, Geometry } from "geojson";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import L from "leaflet";
import { useEffect, useMemo, useState } from "react";
import { GeoJSON, Marker, Pane, useMap, useMapEvents } from "react-leaflet";
import { SCENARIOS } from "@/lib/scenarios/scenario-list";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { PLACE_NAMES_FROM_ZOOM } from "@/lib/geocoding/map-places-schema";
import { getMapPlaces, type Viewport } from "../shared/api";
import { labelsPane } from "./basemap";

/**
 * The map's own background where tiles cannot be loaded (a closed dispatch network) or are not
 * wanted (`NEXT_PUBLIC_MAP_TILE_URL=offline`): countries (world-atlas, 1:110m), the United States'
 * land, states and, from zoom 6, counties (us-atlas, 1:10m: a region's shape, not its streets). The
 * outlines are chunks of the app's own bundle, loaded when first needed and cached by the browser
 * like the rest of it; nothing leaves the site. Towns and cities are named from the geocoder's own
 * place lists (GET /api/map/places: the largest of each label-sized cell, so zooming in names
 * more), and the scenarios' districts from zoom 8, where their calls are told apart
 * (docs/offline-map.png); the names in the labels' pane, over the markers (basemap.ts).
 */

/** Counties (800 KB of outlines) from this zoom on; states and countries at every zoom. */
const COUNTIES_FROM_ZOOM = 6;
/** The scenarios' district names from this zoom on. */
const AREA_NAMES_FROM_ZOOM = 8;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const label = (name: string, kind: "area" | "place") =>
  L.divIcon({ className: `basemap-label basemap-${kind}`, html: `<span>${escapeHtml(name)}</span>`, iconSize: undefined });

const AREAS = SCENARIOS.flatMap((scenario) =>
  scenario.areas.map((area) => ({
    key: `${scenario.id}:${area.name}`,
    position: [area.center.lat, area.center.lon] as [number, number],
    icon: label(area.name, "area"),
  })),
);

/** A town the scenarios also name as a district is labelled once, as the district, where districts show. */
const AREA_NAMES = new Set(SCENARIOS.flatMap((scenario) => scenario.areas.map((area) => area.name)));

function viewOf(map: L.Map): Viewport {
  const bounds = map.getBounds();
  return { west: bounds.getWest(), south: bounds.getSouth(), east: bounds.getEast(), north: bounds.getNorth(), zoom: map.getZoom() };
}

/** The towns and cities to name in the view, kept while the next view's are read. */
function usePlaceLabels(view: Viewport) {
  const { data } = useQuery({
    queryKey: ["places", view],
    queryFn: () => getMapPlaces(view),
    enabled: view.zoom >= PLACE_NAMES_FROM_ZOOM,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
  return useMemo(
    () =>
      view.zoom < PLACE_NAMES_FROM_ZOOM
        ? []
        : (data?.places ?? [])
            .filter((place) => view.zoom < AREA_NAMES_FROM_ZOOM || !AREA_NAMES.has(place.name))
            .map((place) => ({
              key: `${place.state}:${place.name}:${place.latitude}`,
              position: [place.latitude, place.longitude] as [number, number],
              icon: label(place.name, "place"),
            })),
    [data, view.zoom],
  );
}

type Outlines = FeatureCollection<Geometry> | GeoJSON.MultiLineString;

async function loadWorld(): Promise<Outlines> {
  const world = (await import("world-atlas/countries-110m.json")).default as unknown as Topology<{ countries: GeometryCollection }>;
  return feature(world, world.objects.countries) as FeatureCollection<Geometry>;
}

async function loadNation(): Promise<Outlines> {
  const us = (await import("us-atlas/nation-10m.json")).default as unknown as Topology<{ nation: GeometryCollection }>;
  return feature(us, us.objects.nation) as FeatureCollection<Geometry>;
}

async function loadStates(): Promise<Outlines> {
  const us = (await import("us-atlas/states-10m.json")).default as unknown as Topology<{ states: GeometryCollection }>;
  return mesh(us, us.objects.states);
}

async function loadCounties(): Promise<Outlines> {
  const us = (await import("us-atlas/counties-10m.json")).default as unknown as Topology<{ counties: GeometryCollection }>;
  return mesh(us, us.objects.counties, (a, b) => a !== b);
}

function useOutlines(load: () => Promise<Outlines>, wanted: boolean): Outlines | null {
  const [outlines, setOutlines] = useState<Outlines | null>(null);
  useEffect(() => {
    if (!wanted || outlines) return;
    let current = true;
    void load().then((loaded) => current && setOutlines(loaded));
    return () => {
      current = false;
    };
  }, [load, wanted, outlines]);
  return wanted ? outlines : null;
}

export function OfflineBasemap() {
  const map = useMap();
  const [view, setView] = useState(() => viewOf(map));
  useMapEvents({ moveend: () => setView(viewOf(map)) });
  const zoom = view.zoom;
  const places = usePlaceLabels(view);
  const world = useOutlines(loadWorld, true);
  const nation = useOutlines(loadNation, true);
  const states = useOutlines(loadStates, true);
  const counties = useOutlines(loadCounties, zoom >= COUNTIES_FROM_ZOOM);
  const pane = labelsPane(map);
  return (
    <>
      <Pane name="basemap" style={{ zIndex: 150 }}>
        {world && <GeoJSON data={world} interactive={false} style={{ className: "basemap-world", weight: 1 }} />}
        {nation && <GeoJSON data={nation} interactive={false} style={{ className: "basemap-land", weight: 1 }} />}
        {counties && <GeoJSON data={counties} interactive={false} style={{ className: "basemap-county", weight: 0.5, fill: false }} />}
        {states && <GeoJSON data={states} interactive={false} style={{ className: "basemap-state", weight: 1.2, fill: false }} />}
      </Pane>
      {places.map((place) => <Marker key={place.key} pane={pane} position={place.position} icon={place.icon} interactive={false} keyboard={false} />)}
      {zoom >= AREA_NAMES_FROM_ZOOM &&
        AREAS.map((area) => <Marker key={area.key} pane={pane} position={area.position} icon={area.icon} interactive={false} keyboard={false} />)}
    </>
  );
}
