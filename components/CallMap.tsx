"use client";

import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect, useMemo, useRef, useState } from "react";
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from "react-leaflet";
import Supercluster from "supercluster";
import { SEVERITIES } from "@/lib/vocabulary";
import type { CallRecord } from "./api";
import type { Bounds } from "./regions";
import { humanize, isOpen, SEVERITY_LABEL, SEVERITY_RANK, severityOf, statusLabel } from "./call-status";
import { callSource, formatTime } from "./format";
import { SeverityBadge, severitySvg } from "./SeverityIcon";
import { StatusBadge } from "./StatusBadge";
import { StatusActions } from "./StatusActions";

/** What the rest of the dashboard asks the map to do; `seq` makes a repeated request count. */
export type MapCommand =
  | { seq: number; kind: "region"; bounds: Bounds }
  | { seq: number; kind: "fit" }
  | { seq: number; kind: "call"; id: string };

interface CallMapProps {
  calls: CallRecord[];
  tileUrl: string;
  command: MapCommand | null;
  /** Called once calls have been drawn: the older pages wait for it (first markers come first). */
  onDrawn: () => void;
}

type Located = CallRecord & { latitude: number; longitude: number };
interface PointProps { id: string; rank: number }
interface ClusterProps { worst: number; critical: number }

/** Above this zoom every call is its own marker. */
const CLUSTER_MAX_ZOOM = 15;
const CALL_ZOOM = CLUSTER_MAX_ZOOM + 1;
const US_VIEW = { center: [39.5, -98.35] as [number, number], zoom: 4 };
const ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

function located(call: CallRecord): call is Located {
  return typeof call.latitude === "number" && typeof call.longitude === "number";
}

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

function callIcon(severity: string, open: boolean, scale: number): L.DivIcon {
  const level = severityOf(severity);
  const size = Math.round(26 * scale);
  return cachedIcon(`call:${level}:${open}:${size}`, () =>
    L.divIcon({
      className: `call-marker sev-${level}${open ? "" : " closed"}`,
      html: severitySvg(level, size),
      iconSize: [size, size],
      iconAnchor: [size / 2, size / 2],
      popupAnchor: [0, -size / 2],
    }),
  );
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

function describe(call: CallRecord): string {
  const severity = SEVERITY_LABEL[severityOf(call.severity)];
  return `${severity} ${humanize(call.emergency_type)} at ${call.location}, ${statusLabel(call.status)}`;
}

function CallPopup({ call }: { call: CallRecord }) {
  return (
    <div className="call-popup" data-call-id={call.conversation_id}>
      <h3>{humanize(call.emergency_type)}</h3>
      <p className="popup-line">
        <SeverityBadge severity={call.severity} /> <StatusBadge status={call.status} />
      </p>
      <p className="popup-line">{call.location}</p>
      <p className="popup-summary">{call.summary}</p>
      <p className="popup-line muted">
        <time dateTime={new Date(call.timestamp * 1000).toISOString()}>{formatTime(call.timestamp)}</time>
        {" · "}
        {callSource(call)}
      </p>
      <StatusActions id={call.conversation_id} status={call.status} />
    </div>
  );
}

function CallMarker({ call, openSeq, scale }: { call: Located; openSeq: number | null; scale: number }) {
  const marker = useRef<L.Marker>(null);
  const opened = useRef<number | null>(null);
  const position = useMemo<[number, number]>(() => [call.latitude, call.longitude], [call.latitude, call.longitude]);
  const icon = callIcon(call.severity, isOpen(call.status), scale);
  const title = describe(call);

  // Leaflet reads `title` only when it builds the icon; keep it current as the status moves.
  useEffect(() => {
    const instance = marker.current;
    if (!instance) return;
    instance.options.title = title;
    instance.getElement()?.setAttribute("title", title);
  }, [title, icon]);

  useEffect(() => {
    if (openSeq !== null && opened.current !== openSeq) {
      opened.current = openSeq;
      marker.current?.openPopup();
    }
  }, [openSeq]);

  return (
    <Marker
      ref={marker}
      position={position}
      icon={icon}
      title={title}
      zIndexOffset={isOpen(call.status) ? 1000 - SEVERITY_RANK[severityOf(call.severity)] * 100 : 0}
    >
      <Popup minWidth={240} maxWidth={340}>
        <CallPopup call={call} />
      </Popup>
    </Marker>
  );
}

function useViewport() {
  const map = useMap();
  const read = () => ({ bounds: map.getBounds(), zoom: Math.round(map.getZoom()) });
  const [view, setView] = useState(read);
  useMapEvents({ moveend: () => setView(read()), zoomend: () => setView(read()) });
  return view;
}

function ClusteredCalls({ calls, focus }: { calls: Located[]; focus: { id: string; seq: number } | null }) {
  const map = useMap();
  const { bounds, zoom } = useViewport();
  const [scale] = useState(iconScale);
  const byId = useMemo(() => new Map(calls.map((call) => [call.conversation_id, call])), [calls]);
  const index = useMemo(() => {
    const cluster = new Supercluster<PointProps, ClusterProps>({
      radius: 60,
      maxZoom: CLUSTER_MAX_ZOOM,
      map: (props) => ({ worst: props.rank, critical: props.rank === 0 ? 1 : 0 }),
      reduce: (total, props) => {
        total.worst = Math.min(total.worst, props.worst);
        total.critical += props.critical;
      },
    });
    cluster.load(
      calls.map((call) => ({
        type: "Feature" as const,
        geometry: { type: "Point" as const, coordinates: [call.longitude, call.latitude] },
        properties: { id: call.conversation_id, rank: SEVERITY_RANK[severityOf(call.severity)] },
      })),
    );
    return cluster;
  }, [calls]);

  const west = Math.max(-180, bounds.getWest());
  const east = Math.min(180, bounds.getEast());
  const features = index.getClusters([west, Math.max(-85, bounds.getSouth()), east, Math.min(85, bounds.getNorth())], zoom);

  return (
    <>
      {features.map((feature) => {
        const [lng, lat] = feature.geometry.coordinates;
        const props = feature.properties;
        if ("cluster" in props && props.cluster) {
          const clusterId = props.cluster_id;
          const { worst, critical } = props as unknown as ClusterProps;
          const count = props.point_count;
          return (
            <Marker
              key={`cluster-${clusterId}`}
              position={[lat, lng]}
              icon={clusterIcon(count, worst, scale)}
              title={`${count} calls here, ${critical} critical: zoom in`}
              zIndexOffset={2000}
              eventHandlers={{
                click: () =>
                  map.setView([lat, lng], Math.min(index.getClusterExpansionZoom(clusterId), CALL_ZOOM), { animate: !reducedMotion() }),
              }}
            />
          );
        }
        const call = byId.get((props as PointProps).id);
        if (!call) return null;
        return (
          <CallMarker
            key={call.conversation_id}
            call={call}
            openSeq={focus?.id === call.conversation_id ? focus.seq : null}
            scale={scale}
          />
        );
      })}
    </>
  );
}

/** Carries out the dashboard's map commands: region jumps, fit all, fly to a call. */
function MapCommands({ calls, command, onFocus }: { calls: Located[]; command: MapCommand | null; onFocus: (focus: { id: string; seq: number }) => void }) {
  const map = useMap();
  const fitted = useRef(false);
  const handled = useRef<number | null>(null);

  useEffect(() => {
    const container = map.getContainer();
    container.setAttribute("role", "region");
    container.setAttribute("aria-label", "Map of calls. Arrow keys pan, plus and minus zoom.");
  }, [map]);

  // The first time calls arrive, show them all.
  useEffect(() => {
    if (fitted.current || calls.length === 0) return;
    fitted.current = true;
    map.fitBounds(L.latLngBounds(calls.map((call) => [call.latitude, call.longitude])), { padding: [30, 30], maxZoom: 13, animate: false });
  }, [calls, map]);

  useEffect(() => {
    if (!command || handled.current === command.seq) return;
    handled.current = command.seq;
    const animate = !reducedMotion();
    if (command.kind === "region") {
      map.flyToBounds(command.bounds, { animate, duration: 0.8 });
    } else if (command.kind === "fit") {
      if (calls.length > 0) map.flyToBounds(L.latLngBounds(calls.map((call) => [call.latitude, call.longitude])), { padding: [30, 30], maxZoom: 13, animate, duration: 0.8 });
      else map.setView(US_VIEW.center, US_VIEW.zoom);
    } else {
      const call = calls.find((candidate) => candidate.conversation_id === command.id);
      if (!call) return;
      const target = L.latLng(call.latitude, call.longitude);
      const done = () => onFocus({ id: call.conversation_id, seq: command.seq });
      if (map.getZoom() >= CALL_ZOOM && map.getBounds().pad(-0.2).contains(target)) return done();
      // Open the popup after the flight: its auto-pan would cut the flight short.
      map.once("moveend", done);
      map.flyTo(target, Math.max(map.getZoom(), CALL_ZOOM), { animate, duration: 0.8 });
    }
  }, [command, calls, map, onFocus]);
  return null;
}

export default function CallMap({ calls, tileUrl, command, onDrawn }: CallMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  useEffect(() => {
    if (calls.length > 0) onDrawn();
  }, [calls, onDrawn]);
  const [focus, setFocus] = useState<{ id: string; seq: number } | null>(null);
  const onMap = useMemo(() => calls.filter(located), [calls]);

  return (
    <>
      <p className="map-offline" role="status">
        {tilesFailed ? "Map tiles cannot be loaded: calls are drawn on a plain background." : ""}
      </p>
      <div className={`map-frame${tilesFailed ? " tiles-offline" : ""}`}>
        <MapContainer center={US_VIEW.center} zoom={US_VIEW.zoom} className="call-map">
          <TileLayer
            url={tileUrl}
            attribution={ATTRIBUTION}
            eventHandlers={{ tileerror: () => setTilesFailed(true), tileload: () => setTilesFailed(false) }}
          />
          <ClusteredCalls calls={onMap} focus={focus} />
          <MapCommands calls={onMap} command={command} onFocus={setFocus} />
        </MapContainer>
        <p className="map-count" aria-live="off">
          {onMap.length.toLocaleString()} calls on the map
          {calls.length > onMap.length ? ` (${(calls.length - onMap.length).toLocaleString()} without coordinates)` : ""}
        </p>
      </div>
    </>
  );
}
