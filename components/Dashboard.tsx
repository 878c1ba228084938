"use client";

import dynamic from "next/dynamic";
import { useCallback, useMemo, useRef, useState } from "react";
import type { WhoAmI } from "@/lib/access/schema";
import { SEVERITIES } from "@/lib/vocabulary";
import { ApiRequestError, type CallRecord, type LiveIncident } from "./api";
import { BacklogBanner } from "./BacklogBanner";
import { SEVERITY_LABEL } from "./call-status";
import type { Basemap } from "./basemap";
import type { MapCommand } from "./CallMap";
import { AlertControls } from "./AlertControls";
import { ExerciseBanner, ExercisePanel } from "./ExercisePanel";
import { ExerciseToggle } from "./ExerciseToggle";
import { formatClock } from "./format";
import { HistoryPanel } from "./HistoryPanel";
import { UnitBoard } from "./UnitBoard";
import { IncidentDetail } from "./IncidentDetail";
import { IncidentQueue, queuePlace, queueSort, queueView, type SectionRows } from "./IncidentQueue";
import { KeyboardHelp } from "./KeyboardHelp";
import { PersonMenu, PersonProvider, useCan } from "./person";
import { Providers, useNoticeContext } from "./providers";
import { type Bounds, REGIONS } from "./regions";
import { MapRegions } from "./MapRegions";
import { severitySvg } from "./SeverityIcon";
import { SimulationForm } from "./SimulationForm";
import { POLL_MS, useBoard, useQueueSection } from "./use-calls";
import { type FeedMode, useChangeFeed } from "./use-change-feed";
import { useAlerts } from "./use-alerts";
import { useExerciseVisibility } from "./exercise-visibility";
import { useCurrentExercise } from "./use-exercises";

// Leaflet touches `window` when it loads: the map is drawn in the browser only. Its code starts
// downloading as soon as this module runs, not after hydration, so the first markers come sooner.
const loadMap = () => import("./CallMap");
if (typeof window !== "undefined") void loadMap();
const CallMap = dynamic(loadMap, {
  ssr: false,
  loading: () => <div className="map-frame map-loading">Loading map…</div>,
});

type MapRequest = MapCommand extends infer C ? (C extends MapCommand ? Omit<C, "seq"> : never) : never;

function Notices() {
  const { notices, dismiss } = useNoticeContext();
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div key={notice.id} className="notice" role="alert">
          <span>{notice.text}</span>
          <button type="button" onClick={() => dismiss(notice.id)} aria-label="Dismiss message">×</button>
        </div>
      ))}
    </div>
  );
}

const MODE_LABEL: Record<FeedMode, string> = { connecting: "Connecting", live: "Live", polling: "Polling" };
const MODE_TITLE: Record<FeedMode, string> = {
  connecting: "Connecting to the change stream",
  live: "Changes are pushed by the server as they happen",
  polling: `The change stream is unavailable: asking for changes every ${POLL_MS / 1000} s`,
};

function LiveStatus({ mode, updatedAt, error }: { mode: FeedMode; updatedAt: number; error: Error | null }) {
  const unreachable = error instanceof ApiRequestError && error.unreachable;
  return (
    <>
      <p className="live-status" aria-live="off">
        <span className={`live-dot${error ? " down" : ""}`} aria-hidden="true" />
        <span className={`feed-mode mode-${mode}`} data-testid="feed-mode" title={MODE_TITLE[mode]}>{MODE_LABEL[mode]}</span>
        {" · "}
        {updatedAt > 0 ? (
          <>Updated <time data-testid="last-updated" dateTime={new Date(updatedAt).toISOString()}>{formatClock(new Date(updatedAt))}</time></>
        ) : (
          "Connecting…"
        )}
      </p>
      {error && (
        <div className="banner" role="alert">
          {unreachable ? "The Mayday API cannot be reached." : `The calls could not be loaded: ${error.message}.`}{" "}
          {updatedAt > 0 ? `Showing calls as of ${formatClock(new Date(updatedAt))}; ` : ""}retrying every {POLL_MS / 1000} s.
        </div>
      )}
    </>
  );
}

/** A section's infinite query as the queue reads it. */
function sectionRows(query: ReturnType<typeof useQueueSection>): SectionRows {
  return {
    pages: query.data?.pages,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
    isPending: query.isPending,
  };
}

function DashboardView({ basemap }: { basemap: Basemap }) {
  const canTrain = useCan("train");
  const [mapDrawn, setMapDrawn] = useState(false);
  const onMapDrawn = useCallback(() => setMapDrawn(true), []);
  const board = useBoard();
  const sort = queueSort.useValue();
  const place = queuePlace.useValue();
  const waitingQuery = useQueueSection(queueView("waiting", sort, place), true);
  const dispatchedQuery = useQueueSection(queueView("dispatched", sort, place), true);
  const waiting = sectionRows(waitingQuery);
  const dispatched = sectionRows(dispatchedQuery);
  const waitingPages = waitingQuery.data?.pages;
  const dispatchedPages = dispatchedQuery.data?.pages;
  // The rows read so far: the merge menu's candidates, and the calls on screen at load.
  const loaded = useMemo(() => [...(waitingPages ?? []), ...(dispatchedPages ?? [])].flatMap((page) => page.incidents), [waitingPages, dispatchedPages]);
  // Calls already on screen at load (each queued incident's latest) are not news when a change names them.
  const known = useMemo(() => new Set(loaded.map((incident) => incident.latest_call.conversation_id)), [loaded]);
  const feed = useChangeFeed(board.data?.cursor, known);
  // The running or paused exercise's incidents alert while it is shown (not hidden by the header's switch).
  const liveExercise = useCurrentExercise().live?.id;
  const alerts = useAlerts(useExerciseVisibility() === "show" ? liveExercise : undefined);
  const error = feed.error ?? board.error ?? waitingQuery.error ?? dispatchedQuery.error;
  const [command, setCommand] = useState<MapCommand | null>(null);
  const send = useCallback((request: MapRequest) => setCommand((last) => ({ ...request, seq: (last?.seq ?? 0) + 1 }) as MapCommand), []);
  const [incidentId, setIncidentIdState] = useState<string | null>(null);
  // Where the open incident was opened from (its queue row, a map popup): the focus goes back there.
  const openedFrom = useRef<Element | null>(null);
  const setIncidentId = useCallback((id: string | null) => {
    if (id !== null) openedFrom.current = document.activeElement;
    setIncidentIdState(id);
  }, []);
  const returnFocus = useCallback(() => {
    const origin = openedFrom.current;
    const row = incidentId ? document.querySelector<HTMLElement>(`.queue-item[data-incident-id="${CSS.escape(incidentId)}"] .queue-title`) : null;
    const fromOrigin = origin instanceof HTMLElement && origin.isConnected && origin !== document.body ? origin : null;
    // A corrected call may leave its incident, and the incident the queue: then the open panel, else the queue.
    (fromOrigin ?? row ?? document.querySelector<HTMLElement>(".incident-detail, .queue-list .queue-title"))?.focus();
  }, [incidentId]);
  // A call is shown where its incident's marker is: the popup that opens is its incident's.
  const showCall = useCallback(
    (call: CallRecord) => {
      if (call.latitude !== null && call.longitude !== null) {
        send({ kind: "incident", incidentId: call.incident_id, latitude: call.latitude, longitude: call.longitude });
      }
    },
    [send],
  );
  const selectIncident = useCallback(
    (incident: LiveIncident) => {
      setIncidentId(incident.id);
      if (incident.latitude !== null && incident.longitude !== null) {
        send({ kind: "incident", incidentId: incident.id, latitude: incident.latitude, longitude: incident.longitude });
      }
    },
    [send, setIncidentId],
  );
  const showRegion = useCallback((bounds: Bounds) => send({ kind: "region", bounds }), [send]);
  const fitAll = useCallback(() => send({ kind: "fit" }), [send]);
  const showScenario = useCallback(
    (scenario: string) => {
      const region = REGIONS.find((candidate) => candidate.scenario === scenario);
      if (region) send({ kind: "region", bounds: region.bounds });
    },
    [send],
  );

  return (
    <>
      <a className="skip-link" href="#queue-title">Skip to the incident queue</a>
      <header className="top-bar">
        <h1>Mayday dispatch</h1>
        <LiveStatus mode={feed.mode} updatedAt={feed.updatedAt} error={error} />
        <BacklogBanner />
        <ExerciseBanner />
        <ExerciseToggle />
        <AlertControls alerts={alerts} />
        <PersonMenu />
      </header>
      <main className={`dashboard${incidentId !== null ? " with-incident" : ""}`}>
        <section className="panel map-panel" aria-labelledby="map-title">
          <header className="panel-head">
            <h2 id="map-title">Live map</h2>
            <MapRegions onRegion={showRegion} onFitAll={fitAll} />
          </header>
          <CallMap
            basemap={basemap}
            command={command}
            openBounds={board.data?.open_bounds}
            onDrawn={onMapDrawn}
            onSelectIncident={setIncidentId}
          />
          <ul className="map-legend" aria-label="Marker legend">
            {SEVERITIES.map((level) => (
              <li key={level}>
                <span className="sev-icon" dangerouslySetInnerHTML={{ __html: severitySvg(level, 16) }} /> {SEVERITY_LABEL[level]}
              </li>
            ))}
            <li><span className="legend-faded" aria-hidden="true" /> Faded: resolved or failed</li>
            <li><span className="legend-incident" aria-hidden="true">4</span> Incident: larger with more callers</li>
            <li><span className="legend-cluster" aria-hidden="true">12</span> Group of incidents, coloured by its most severe</li>
          </ul>
        </section>
        <IncidentQueue
          waiting={waiting}
          dispatched={dispatched}
          openCalls={board.data?.open.total ?? 0}
          openIncidents={board.data?.open_incidents ?? 0}
          incidentsBySeverity={board.data?.open_incidents_by_severity}
          callsBySeverity={board.data?.open.by_severity}
          arrivals={feed.arrivals}
          alerts={alerts}
          selected={incidentId}
          onSelect={selectIncident}
          onSelectAlert={selectIncident}
        />
        {incidentId !== null && (
          <IncidentDetail
            key={incidentId}
            id={incidentId}
            candidates={loaded}
            onClose={() => {
              returnFocus();
              setIncidentId(null);
            }}
            onShowOnMap={showCall}
            onDone={returnFocus}
          />
        )}
        <HistoryPanel onShowOnMap={showCall} enabled={mapDrawn} />
        <UnitBoard openIncidentId={incidentId} onSelectIncident={setIncidentId} />
        {canTrain && <SimulationForm onSimulated={showScenario} />}
        <ExercisePanel />
      </main>
      <Notices />
      <KeyboardHelp />
    </>
  );
}

export function Dashboard({ basemap, person }: { basemap: Basemap; person: WhoAmI }) {
  return (
    <Providers>
      <PersonProvider person={person}>
        <DashboardView basemap={basemap} />
      </PersonProvider>
    </Providers>
  );
}
