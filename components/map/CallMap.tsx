"use client";

import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { memo, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Circle, MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from "react-leaflet";
import { SEVERITIES } from "@/lib/vocabulary";
import type { IncidentMapView, LiveIncident, Viewport } from "../shared/api";
import type { Bounds } from "./regions";
import { humanize, isOpen, SEVERITY_LABEL, SEVERITY_RANK, severityOf, statusLabel } from "../shared/call-status";
import type { Basemap } from "./basemap";
import { OfflineBasemap } from "./OfflineBasemap";
import { StreetMap } from "./StreetMap";
import { CentreStreets } from "./CentreStreets";
import { useMapArea } from "./use-map-area";
import { useIncidentMap } from "../shared/use-calls";
import { callersLabel, formatTime } from "../shared/format";
import { SeverityBadge, severitySvg } from "../shared/SeverityIcon";
import { StatusBadge } from "../shared/StatusBadge";
import { IncidentStatusActions } from "../console/StatusActions";
import { precisionLabel, shownAddress, uncertaintyCircle } from "../shared/precision";
import { locating, OnTheLine } from "../shared/OnTheLine";
import type { Unit } from "@/lib/units/schema";
import { unitStateLabel, useUnits } from "../shared/use-units";

/**
 * What the rest of the dashboard asks the map to do; `seq` makes a repeated request count.
 * `incident`: fly to a point (the incident's centroid, or one of its calls) and open the incident's popup.
 */
export type MapCommand =
  | { seq: number; kind: "region"; bounds: Bounds }
  | { seq: number; kind: "fit" }
  | { seq: number; kind: "incident"; incidentId: string; latitude: number; longitude: number };

/** [west, south, east, north] */
type Box = [number, number, number, number];

interface CallMapProps {
  basemap: Basemap;
  command: MapCommand | null;
  /** Around every open call (the board's): the first view and "Fit all". */
  openBounds: Box | null | undefined;
  /** Called once the server's first answer is drawn: the history waits for it (first markers come first). */
  onDrawn: () => void;
  /** "Show its calls" in an incident's popup. */
  onSelectIncident: (id: string) => void;
}

type Located = LiveIncident & { latitude: number; longitude: number };

/** From this zoom the server sends every incident as its own marker (lib/board/call-map.ts MARKER_ZOOM). */
const CALL_ZOOM = 16;
const US_VIEW = { center: [39.5, -98.35] as [number, number], zoom: 4 };
const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

function located(incident: LiveIncident): incident is Located {
  return typeof incident.latitude === "number" && typeof incident.longitude === "number";
}

const toLatLngBounds = ([west, south, east, north]: Box) => L.latLngBounds([south, west], [north, east]);

function reducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

const iconCache = new Map<string, L.DivIcon>();

/** Icons grow with the root font size, like the rest of the page on a wall display. */
function iconScale(): number {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) / 16 || 1;
}

/** Icons are few (severity x open/closed, cluster sizes), so they are made once and reused. */
function cachedIcon(key: string, make: () => L.DivIcon): L.DivIcon {
  let icon = iconCache.get(key);
  if (!icon) {
    icon = make();
    iconCache.set(key, icon);
  }
  return icon;
}

/** An incident's marker grows with its calls: 26 px for one caller, about 8 px more per doubling, up to 64. */
function incidentMarkerPixels(calls: number): number {
  return Math.min(64, 26 + 8 * Math.log2(Math.max(1, calls)));
}

/**
 * An incident: its severity's shape, sized by its calls, with the number of calls beside it when
 * more than one. Exercise incidents get a dashed yellow ring (as the queue's Exercise badge) so
 * they are never taken for real ones.
 */
function incidentIcon(severity: string, calls: number, open: boolean, exercise: boolean, onLine: boolean, scale: number, [dx, dy]: Offset): L.DivIcon {
  const level = severityOf(severity);
  const size = Math.round(incidentMarkerPixels(calls) * scale);
  const label = calls > 1 ? `<span class="incident-calls-label" aria-hidden="true">${calls >= 1000 ? `${Math.round(calls / 100) / 10}k` : calls}</span>` : "";
  // A caller on the line now: said beside the marker (its running time is in the popup).
  const live = onLine ? `<span class="on-line-badge incident-on-line" aria-hidden="true">On the line</span>` : "";
  return cachedIcon(`incident:${level}:${calls}:${open}:${exercise}:${onLine}:${size}:${dx}:${dy}`, () =>
    L.divIcon({
      className: `call-marker incident-marker sev-${level}${open ? "" : " closed"}${exercise ? " exercise-call" : ""}${onLine ? " on-line" : ""}`,
      html: severitySvg(level, size) + label + live,
      iconSize: [size, size],
      iconAnchor: [size / 2 - dx, size / 2 - dy],
      popupAnchor: [dx, dy - size / 2],
    }),
  );
}

/** A marker's icon moved this many pixels (right, down) from its point. */
type Offset = readonly [number, number];
const NO_OFFSET: Offset = [0, 0];

/**
 * Markers of incidents on one point (a town centre, one address) fanned out on a small ring around
 * it, each reachable and readable; the point and its uncertainty circle stay where they are.
 */
function fanOut(incidents: readonly Located[], scale: number): Map<string, Offset> {
  const atPoint = new Map<string, Located[]>();
  for (const incident of incidents) {
    const key = `${incident.latitude},${incident.longitude}`;
    const group = atPoint.get(key);
    if (group) group.push(incident);
    else atPoint.set(key, [incident]);
  }
  const offsets = new Map<string, Offset>();
  for (const group of atPoint.values()) {
    if (group.length < 2) continue;
    const radius = Math.round(Math.max(22, (group.length * 30) / (2 * Math.PI)) * scale);
    group.forEach((incident, index) => {
      const angle = (2 * Math.PI * index) / group.length - Math.PI / 2;
      offsets.set(incident.id, [Math.round(radius * Math.cos(angle)), Math.round(radius * Math.sin(angle))]);
    });
  }
  return offsets;
}

function clusterIcon(count: number, worst: number, scale: number): L.DivIcon {
  const level = SEVERITIES[worst];
  const size = Math.round((count < 10 ? 34 : count < 100 ? 40 : count < 1000 ? 48 : 56) * scale);
  return cachedIcon(`cluster:${level}:${count}:${size}`, () =>
    L.divIcon({
      className: `cluster-marker sev-${level}`,
      html: `<span aria-hidden="true">${count >= 1000 ? `${Math.round(count / 100) / 10}k` : count}</span>`,
      iconSize: [size, size],
      iconAnchor: [size / 2, size / 2],
    }),
  );
}

function describe(incident: LiveIncident): string {
  const severity = SEVERITY_LABEL[severityOf(incident.severity)];
  const onLine = incident.on_line_since !== null;
  const where = locating(incident.location, onLine) ? "a place still being located" : incident.location;
  const what = `${severity} ${humanize(incident.emergency_type)} at ${where}, ${callersLabel(incident.call_count)}, ${statusLabel(incident.status)}${
    onLine ? `, a caller on the line since ${formatTime(incident.on_line_since!)}` : ""
  }`;
  return incident.latest_call.exercise_id ? `Exercise: ${what}` : what;
}

function IncidentPopup({ incident, onSelect }: { incident: LiveIncident; onSelect: (id: string) => void }) {
  const latest = incident.latest_call;
  return (
    <div className="call-popup incident-popup" data-incident-id={incident.id}>
      <h3>{humanize(incident.emergency_type)} {latest.exercise_id && <span className="exercise-badge">Exercise</span>}</h3>
      <p className="popup-line">
        <SeverityBadge severity={incident.severity} /> <StatusBadge status={incident.status} />{" "}
        <span className="caller-count">{callersLabel(incident.call_count)}</span>
        {incident.on_line_since !== null && <> <OnTheLine since={incident.on_line_since} /></>}
      </p>
      <p className="popup-line">
        {locating(incident.location, incident.on_line_since !== null) ? "locating…" : shownAddress(incident)} <span className="muted">({precisionLabel(incident.location_precision, incident.location_uncertainty_m)})</span>
      </p>
      <p className="popup-summary">{latest.summary}</p>
      <p className="popup-line muted">
        Latest call <time dateTime={new Date(latest.timestamp * 1000).toISOString()}>{formatTime(latest.timestamp)}</time>
      </p>
      <IncidentStatusActions id={incident.id} status={incident.status} training={latest.exercise_id !== null} />
      <button type="button" className="link-button" onClick={() => onSelect(incident.id)}>Show its calls</button>
    </div>
  );
}

/** A marker's ref whose `title` is kept current: Leaflet reads it only when it builds the icon, and the state moves. */
function useTitledMarker(title: string, icon: L.DivIcon) {
  const marker = useRef<L.Marker>(null);
  useEffect(() => {
    const instance = marker.current;
    if (!instance) return;
    instance.options.title = title;
    instance.getElement()?.setAttribute("title", title);
  }, [title, icon]);
  return marker;
}

function IncidentMarker({ incident, openSeq, scale, offset, onSelect }: {
  incident: Located; openSeq: number | null; scale: number; offset: Offset; onSelect: (id: string) => void;
}) {
  const opened = useRef<number | null>(null);
  const position = useMemo<[number, number]>(() => [incident.latitude, incident.longitude], [incident.latitude, incident.longitude]);
  const icon = incidentIcon(incident.severity, incident.call_count, isOpen(incident.status), Boolean(incident.latest_call.exercise_id), incident.on_line_since !== null, scale, offset);
  const title = describe(incident);
  const marker = useTitledMarker(title, icon);

  useEffect(() => {
    if (openSeq !== null && opened.current !== openSeq) {
      opened.current = openSeq;
      marker.current?.openPopup();
    }
  }, [openSeq, marker]);

  // Coarser than a street, the point is somewhere in a circle: drawn, so a town centre is not read as an address.
  const radius = uncertaintyCircle(incident.location_precision, incident.location_uncertainty_m);
  return (
    <>
      {radius !== null && (
        <Circle
          center={position}
          radius={radius}
          interactive={false}
          // Leaflet reads a path's class only when it creates it, not from its style options.
          className="uncertainty-circle"
          pathOptions={{ weight: 1, dashArray: "4 4", fillOpacity: 0.06 }}
        />
      )}
      <Marker
        ref={marker}
        position={position}
        icon={icon}
        title={title}
        zIndexOffset={isOpen(incident.status) ? 1000 - SEVERITY_RANK[severityOf(incident.severity)] * 100 : 0}
      >
        <Popup minWidth={240} maxWidth={340}>
          <IncidentPopup incident={incident} onSelect={onSelect} />
        </Popup>
      </Marker>
    </>
  );
}

/** Where a unit is drawn: its fresh position, else its home station (a stale position is never used silently). */
function unitPoint(unit: Unit): { latitude: number; longitude: number; where: string } | null {
  if (unit.position && !unit.position.stale) return { ...unit.position, where: `reported ${formatTime(unit.position.at)}` };
  if (unit.station?.latitude == null || unit.station.longitude == null) return null;
  const stale = unit.position ? `, its position of ${formatTime(unit.position.at)} is stale` : "";
  return { latitude: unit.station.latitude, longitude: unit.station.longitude, where: `at ${unit.station.name} (home station${stale})` };
}

type UnitPoint = NonNullable<ReturnType<typeof unitPoint>>;

const unitTitle = (unit: Unit, point: UnitPoint) =>
  `${unit.exercise_id === null ? "Unit" : "Exercise unit"} ${unit.call_sign} (${unit.type}), ${unitStateLabel(unit.state)}, ${point.where}`;

/**
 * The units at one point (a station's crews, units on one scene) as one marker listing them, one
 * line each with its state's square: call signs never print over each other. Each line carries
 * its unit's own title and state class.
 */
function UnitStack({ units }: { units: { unit: Unit; point: UnitPoint }[] }) {
  const [{ point }] = units;
  const html = units
    .map(({ unit, point: at }) =>
      `<span class="unit-marker unit-${unit.state}" title="${escapeAttribute(unitTitle(unit, at))}"><span class="unit-marker-square"></span><span class="unit-marker-label">${escapeAttribute(unit.call_sign)}</span></span>`,
    )
    .join("");
  // Made anew as the stack changes (its titles carry report times): not in the shared icon cache.
  const icon = useMemo(() => L.divIcon({ className: "unit-stack", html, iconSize: [12, 12], iconAnchor: [6, 6] }), [html]);
  const title = units.map(({ unit, point: at }) => unitTitle(unit, at)).join("; ");
  const marker = useTitledMarker(title, icon);
  return <Marker ref={marker} position={[point.latitude, point.longitude]} icon={icon} title={title} zIndexOffset={-500} />;
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The roster on the map (docs/units.md, "The unit board"): each unit in service in its state's colour, those at one point stacked in one marker. */
function UnitMarkers() {
  const units = useUnits();
  const stacks = useMemo(() => {
    const atPoint = new Map<string, { unit: Unit; point: UnitPoint }[]>();
    for (const unit of units.data?.units ?? []) {
      const point = unit.in_service ? unitPoint(unit) : null;
      if (!point) continue;
      const key = `${point.latitude.toFixed(5)},${point.longitude.toFixed(5)}`;
      const stack = atPoint.get(key);
      if (stack) stack.push({ unit, point });
      else atPoint.set(key, [{ unit, point }]);
    }
    return [...atPoint];
  }, [units.data]);
  return (
    <>
      {stacks.map(([key, stack]) => <UnitStack key={key} units={stack} />)}
    </>
  );
}

/** The viewport as the server is asked for it: the visible box, a little larger, and the zoom. */
function useViewport(): Viewport {
  const map = useMap();
  const read = (): Viewport => {
    const bounds = map.getBounds().pad(0.1);
    return {
      west: Math.max(-180, bounds.getWest()),
      south: Math.max(-90, bounds.getSouth()),
      east: Math.min(180, bounds.getEast()),
      north: Math.min(90, bounds.getNorth()),
      zoom: Math.round(map.getZoom()),
    };
  };
  const [view, setView] = useState(read);
  useMapEvents({ moveend: () => setView(read()) });
  return view;
}

/** Most severe level in a cluster, as a rank (0 critical). */
function worstRank(cluster: IncidentMapView["clusters"][number]): number {
  return cluster.critical > 0 ? 0 : cluster.high > 0 ? 1 : 2;
}

/** The server's clusters and incident markers for the current viewport. */
function ServerIncidents({ focus, onShown, onDrawn, onSelect }: {
  focus: { id: string; seq: number } | null;
  onShown: (shown: { incidents: number; calls: number }) => void;
  onDrawn: () => void;
  onSelect: (id: string) => void;
}) {
  const map = useMap();
  const view = useViewport();
  const [scale] = useState(iconScale);
  const { data, isError } = useIncidentMap(view);
  useEffect(() => {
    if (data) onShown({ incidents: data.shown, calls: data.shown_calls });
    // A failed map read must not hold the history back either.
    if (data || isError) onDrawn();
  }, [data, isError, onShown, onDrawn]);
  const markers = useMemo(() => data?.markers.filter(located) ?? [], [data]);
  const offsets = useMemo(() => fanOut(markers, scale), [markers, scale]);
  if (!data) return null;
  return (
    <>
      {data.clusters.map((cluster) => {
        const title = `${cluster.count} incidents here (${cluster.calls} calls), ${cluster.critical} critical: zoom in`;
        return (
          <Marker
            key={`cluster-${cluster.latitude}-${cluster.longitude}`}
            position={[cluster.latitude, cluster.longitude]}
            icon={clusterIcon(cluster.count, worstRank(cluster), scale)}
            title={title}
            zIndexOffset={2000}
            eventHandlers={{
              click: () => {
                const [west, south, east, north] = cluster.bounds;
                const animate = !reducedMotion();
                if (west === east && south === north) map.setView([south, west], Math.max(map.getZoom() + 2, CALL_ZOOM), { animate });
                else map.fitBounds(toLatLngBounds(cluster.bounds), { padding: [30, 30], animate });
              },
            }}
          />
        );
      })}
      {markers.map((incident) => (
        <IncidentMarker
          key={incident.id}
          incident={incident}
          openSeq={focus?.id === incident.id ? focus.seq : null}
          scale={scale}
          offset={offsets.get(incident.id) ?? NO_OFFSET}
          onSelect={onSelect}
        />
      ))}
    </>
  );
}

/** Carries out the dashboard's map commands: region jumps, fit all, fly to an incident. */
function MapCommands({ areaExtent, openBounds, command, onFocus }: {
  /** The centre's GIS extent: null without GIS data, undefined until known. */
  areaExtent: Box | null | undefined;
  openBounds: Box | null | undefined;
  command: MapCommand | null;
  onFocus: (focus: { id: string; seq: number }) => void;
}) {
  const map = useMap();
  const fitted = useRef(false);
  const handled = useRef<number | null>(null);

  useEffect(() => {
    const container = map.getContainer();
    container.setAttribute("role", "region");
    container.setAttribute("aria-label", "Map of incidents. Arrow keys pan, plus and minus zoom.");
  }, [map]);

  // The first view: the centre's own area (its GIS data), else every open incident once they are known.
  useEffect(() => {
    if (fitted.current || areaExtent === undefined) return;
    const first = areaExtent ?? openBounds;
    if (!first) return;
    fitted.current = true;
    map.fitBounds(toLatLngBounds(first), { padding: [30, 30], maxZoom: 13, animate: false });
  }, [areaExtent, openBounds, map]);

  useEffect(() => {
    if (!command || handled.current === command.seq) return;
    handled.current = command.seq;
    fitted.current = true;
    const animate = !reducedMotion();
    if (command.kind === "region") {
      map.flyToBounds(command.bounds, { animate, duration: 0.8 });
    } else if (command.kind === "fit") {
      if (openBounds) map.flyToBounds(toLatLngBounds(openBounds), { padding: [30, 30], maxZoom: 13, animate, duration: 0.8 });
      else map.setView(US_VIEW.center, US_VIEW.zoom);
    } else {
      const target = L.latLng(command.latitude, command.longitude);
      // The marker opens its popup when the server's answer for the new view draws it.
      const done = () => onFocus({ id: command.incidentId, seq: command.seq });
      if (map.getZoom() >= CALL_ZOOM && map.getBounds().pad(-0.2).contains(target)) return done();
      // Open the popup after the flight: its auto-pan would cut the flight short.
      map.once("moveend", done);
      map.flyTo(target, Math.max(map.getZoom(), CALL_ZOOM), { animate, duration: 0.8 });
    }
  }, [command, openBounds, map, onFocus]);
  return null;
}

/** NEXT_PUBLIC_MAP_TILE_URL=offline: no tile server at all, the map's own outlines only. */
const NO_TILES = "offline";

/**
 * The map's box changes with the layout (an incident opened beside the queue narrows it): Leaflet
 * measures its container again, keeping its centre, so a flight and a popup land inside the map.
 */
function FollowContainerSize() {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map]);
  return null;
}

function CallMap({ basemap, command, openBounds, onDrawn, onSelectIncident }: CallMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const onStreetMapFailed = useCallback(() => setTilesFailed(true), []);
  const { tileUrl, streetMapUrl } = basemap;
  const offline = !streetMapUrl && tileUrl === NO_TILES;
  const [focus, setFocus] = useState<{ id: string; seq: number } | null>(null);
  const [shown, setShown] = useState<{ incidents: number; calls: number } | null>(null);
  const area = useMapArea();
  const areaExtent = area.isPending ? undefined : (area.data?.extent ?? null);

  return (
    <>
      <p className="map-offline" role="status">
        {tilesFailed
          ? `${streetMapUrl ? "The street map" : "Map tiles"} cannot be loaded: the map draws its own outlines of countries, states and counties.`
          : ""}
      </p>
      <div className={`map-frame${tilesFailed || offline ? " tiles-offline" : ""}${streetMapUrl && !tilesFailed ? " street-map" : ""}`}>
        <MapContainer center={US_VIEW.center} zoom={US_VIEW.zoom} className="call-map">
          {streetMapUrl && !tilesFailed && <StreetMap url={streetMapUrl} onFailed={onStreetMapFailed} />}
          {!streetMapUrl && !offline && (
            <TileLayer
              url={tileUrl}
              attribution={ATTRIBUTION}
              eventHandlers={{ tileerror: () => setTilesFailed(true), tileload: () => setTilesFailed(false) }}
            />
          )}
          {(offline || tilesFailed) && <OfflineBasemap />}
          {(!streetMapUrl || tilesFailed) && <CentreStreets />}
          <ServerIncidents focus={focus} onShown={setShown} onDrawn={onDrawn} onSelect={onSelectIncident} />
          <UnitMarkers />
          <MapCommands areaExtent={areaExtent} openBounds={openBounds} command={command} onFocus={setFocus} />
          <FollowContainerSize />
        </MapContainer>
        <p className="map-count" aria-live="off">
          {shown === null
            ? ""
            : `${shown.incidents.toLocaleString()} incidents (${shown.calls.toLocaleString()} calls) in view (open, and closed in the last hours)`}
        </p>
      </div>
    </>
  );
}

/** Drawn again only when its own props change, not with every update of the page around it. */
export default memo(CallMap);
