"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import L from "leaflet";
import { useMemo, useState } from "react";
import { Marker, Pane, Polyline, useMap, useMapEvents } from "react-leaflet";
import { ADDRESS_NUMBERS_FROM_ZOOM, type Box, type MapStreets, STREETS_FROM_ZOOM } from "@/lib/geocoding/map-streets-schema";
import { getMapStreets } from "../shared/api";
import { labelsPane } from "./basemap";

/**
 * The centre's own streets (docs/dashboard.md, "Street map"), drawn when no PMTiles street map is:
 * the imported centrelines from GET /api/map/streets (the map's own server; nothing leaves the
 * site), under the markers, with their names along them and, close in, the house numbers, as DOM
 * labels in the labels' pane above the markers (basemap.ts). A label goes where its street runs
 * longest in view and is left out where it would cover another.
 */

/** A request's box is the view snapped out to cells of this many pixels: nearby views ask the same, and the browser keeps it. */
const CELL_PIXELS = 512;
/** Characters' average width and the label's height, in pixels, at the labels' font size. */
const CHARACTER_PIXELS = 6.5;
const LABEL_HEIGHT = 14;

interface View {
  bbox: Box;
  zoom: number;
}

function snappedView(map: L.Map): View {
  const zoom = Math.round(map.getZoom());
  const cell = (CELL_PIXELS * 360) / (256 * 2 ** zoom);
  const bounds = map.getBounds();
  const down = (value: number) => Math.floor(value / cell) * cell;
  const up = (value: number) => Math.ceil(value / cell) * cell;
  const fixed = (value: number) => Number(value.toFixed(7));
  return {
    zoom,
    bbox: [
      fixed(Math.max(-180, down(bounds.getWest()))),
      fixed(Math.max(-85, down(bounds.getSouth()))),
      fixed(Math.min(180, up(bounds.getEast()))),
      fixed(Math.min(85, up(bounds.getNorth()))),
    ],
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function streetLabel(name: string, angle: number): L.DivIcon {
  return L.divIcon({
    className: "street-label",
    html: `<span style="transform: translate(-50%, -50%) rotate(${angle.toFixed(1)}deg)">${escapeHtml(name)}</span>`,
    iconSize: [0, 0],
  });
}

function numberLabel(number: string): L.DivIcon {
  return L.divIcon({ className: "street-number", html: `<span>${escapeHtml(number)}</span>`, iconSize: [0, 0] });
}

interface Placed {
  key: string;
  position: L.LatLng;
  icon: L.DivIcon;
}

/** A label's room on screen: the box around it, turned. */
type Room = { left: number; top: number; right: number; bottom: number };
const overlaps = (a: Room, b: Room) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
function roomOf(x: number, y: number, width: number, height: number, angle: number): Room {
  const radians = (angle * Math.PI) / 180;
  const halfWidth = (Math.abs(Math.cos(radians)) * width + Math.abs(Math.sin(radians)) * height) / 2;
  const halfHeight = (Math.abs(Math.sin(radians)) * width + Math.abs(Math.cos(radians)) * height) / 2;
  return { left: x - halfWidth, top: y - halfHeight, right: x + halfWidth, bottom: y + halfHeight };
}

/**
 * The part of segment a-b inside the view (Liang-Barsky), and whether it was cut at either end;
 * null when none of it is in view.
 */
function clipped(a: L.Point, b: L.Point, size: L.Point): { from: L.Point; to: L.Point; enters: boolean; leaves: boolean } | null {
  const [dx, dy] = [b.x - a.x, b.y - a.y];
  let [t0, t1] = [0, 1];
  for (const [p, q] of [[-dx, a.x], [dx, size.x - a.x], [-dy, a.y], [dy, size.y - a.y]]) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    if (t0 > t1) return null;
  }
  return { from: L.point(a.x + t0 * dx, a.y + t0 * dy), to: L.point(a.x + t1 * dx, a.y + t1 * dy), enters: t0 > 0, leaves: t1 < 1 };
}

/**
 * Where each street is named: the middle of its longest stretch in view (its segments cut to the
 * view, in screen pixels) when the name fits there, turned along it and never upside down;
 * longer stretches first, and no label over another. House numbers the same way, after the names.
 */
function placeLabels(map: L.Map, data: MapStreets): Placed[] {
  const size = map.getSize();
  const inView = (point: L.Point) => point.x >= 0 && point.y >= 0 && point.x <= size.x && point.y <= size.y;
  const candidates: { name: string; length: number; at: L.Point; angle: number }[] = [];
  for (const street of data.streets) {
    const points: L.Point[] = [];
    for (let i = 0; i < street.coordinates.length; i += 2) points.push(map.latLngToContainerPoint([street.coordinates[i + 1], street.coordinates[i]]));
    let best: { length: number; segments: [L.Point, L.Point][] } = { length: 0, segments: [] };
    let run: { length: number; segments: [L.Point, L.Point][] } = { length: 0, segments: [] };
    for (let i = 1; i < points.length; i++) {
      const piece = clipped(points[i - 1], points[i], size);
      if (!piece) continue;
      // A stretch leaves the view where a piece was cut short: the next piece starts another.
      if (piece.enters) run = { length: 0, segments: [] };
      run.segments.push([piece.from, piece.to]);
      run.length += piece.from.distanceTo(piece.to);
      if (run.length > best.length) best = run;
      if (piece.leaves) run = { length: 0, segments: [] };
    }
    if (best.length < street.name.length * CHARACTER_PIXELS + 16) continue;
    let along = best.length / 2;
    for (const [a, b] of best.segments) {
      const length = a.distanceTo(b);
      if (along > length) {
        along -= length;
        continue;
      }
      const t = length === 0 ? 0 : along / length;
      let angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
      if (angle > 90) angle -= 180;
      if (angle <= -90) angle += 180;
      candidates.push({ name: street.name, length: best.length, at: L.point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t), angle });
      break;
    }
  }
  candidates.sort((a, b) => b.length - a.length);
  const taken: Room[] = [];
  const placed: Placed[] = [];
  const place = (key: string, at: L.Point, width: number, angle: number, icon: () => L.DivIcon) => {
    const room = roomOf(at.x, at.y, width, LABEL_HEIGHT, angle);
    if (taken.some((other) => overlaps(room, other))) return;
    taken.push(room);
    placed.push({ key, position: map.containerPointToLatLng(at), icon: icon() });
  };
  for (const candidate of candidates) {
    place(`street:${candidate.name}:${Math.round(candidate.at.x)}:${Math.round(candidate.at.y)}`, candidate.at, candidate.name.length * CHARACTER_PIXELS, candidate.angle, () =>
      streetLabel(candidate.name, candidate.angle),
    );
  }
  for (const point of data.addresses) {
    const at = map.latLngToContainerPoint([point.latitude, point.longitude]);
    if (!inView(at)) continue;
    place(`number:${point.number}:${point.longitude}:${point.latitude}`, at, point.number.length * CHARACTER_PIXELS + 2, 0, () => numberLabel(point.number));
  }
  return placed;
}

export function CentreStreets() {
  const map = useMap();
  const [view, setView] = useState(() => snappedView(map));
  // Labels are placed for the map as it stands: again after every move.
  const [moved, setMoved] = useState(0);
  useMapEvents({
    moveend: () => {
      setView((current) => {
        const next = snappedView(map);
        return next.zoom === current.zoom && next.bbox.every((value, index) => value === current.bbox[index]) ? current : next;
      });
      setMoved((count) => count + 1);
    },
  });
  const drawn = view.zoom >= STREETS_FROM_ZOOM;
  const { data } = useQuery({
    queryKey: ["streets", view.bbox, view.zoom],
    queryFn: () => getMapStreets(view.bbox, view.zoom),
    enabled: drawn,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
  const lines = useMemo(
    () => (data?.streets ?? []).map((street) => {
      const positions: [number, number][] = [];
      for (let i = 0; i < street.coordinates.length; i += 2) positions.push([street.coordinates[i + 1], street.coordinates[i]]);
      return positions;
    }),
    [data],
  );
  const labels = useMemo(
    () => (data && drawn ? placeLabels(map, view.zoom >= ADDRESS_NUMBERS_FROM_ZOOM ? data : { ...data, addresses: [] }) : []),
    // `moved`: the same answer is labelled again for the map's new position.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [data, drawn, map, moved, view.zoom],
  );
  if (!drawn || !data) return null;
  const pane = labelsPane(map);
  return (
    <>
      <Pane name="centre-streets" style={{ zIndex: 250 }}>
        {/* The class as a prop: Leaflet reads it only when it makes the path, not from setStyle. */}
        <Polyline positions={lines} interactive={false} className="centre-street" pathOptions={{ weight: 3 }} />
      </Pane>
      {labels.map((label) => <Marker key={label.key} pane={pane} position={label.position} icon={label.icon} interactive={false} keyboard={false} />)}
    </>
  );
}
