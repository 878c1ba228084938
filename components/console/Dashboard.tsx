"use client";

import dynamic from "next/dynamic";
import { type CSSProperties, useCallback, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { WhoAmI } from "@/lib/access/schema";
import { SEVERITIES } from "@/lib/vocabulary";
import { ApiRequestError, type CallRecord, type LiveIncident } from "../shared/api";
import { BacklogBanner } from "./BacklogBanner";
import { SEVERITY_LABEL } from "../shared/call-status";
import type { Basemap } from "../map/basemap";
import type { MapCommand } from "../map/CallMap";
import { AlertControls } from "./AlertControls";
import { CallTakingForm } from "./CallTakingForm";
import { changeCallDraft, markFormOpened } from "./call-draft";
import { Drawer, type DrawerName, DrawerToggle, DrawerToggles, drawerToggle } from "./Drawer";
import { ExerciseBanner, ExercisePanel } from "../training/ExercisePanel";
import { ExerciseToggle } from "../training/ExerciseToggle";
import { formatClock } from "../shared/format";
import { HistoryPanel } from "../history/HistoryPanel";
import { UnitBoard } from "./UnitBoard";
import { IncidentDetail } from "./IncidentDetail";
import { IncidentQueue, useQueueSections } from "./IncidentQueue";
import { KeyboardHelp } from "./KeyboardHelp";
import { type PanelSizes, usePanelSizes } from "./panel-sizes";
import { PanelResizer } from "./PanelResizer";
import { PersonMenu, PersonProvider, useCan } from "../shared/person";
import { Providers, useNoticeContext } from "../shared/providers";
import { type Bounds, REGIONS } from "../map/regions";
import { MapRegions } from "../map/MapRegions";
import { severitySvg } from "../shared/SeverityIcon";
import { SimulationForm } from "../training/SimulationForm";
import { POLL_MS, useBoard } from "../shared/use-calls";
import { type FeedMode, useChangeFeed } from "./use-change-feed";
import { useAlerts } from "./use-alerts";
import { useExerciseVisibility } from "../training/exercise-visibility";
import { useCurrentExercise } from "../training/use-exercises";
import { useUnits } from "../shared/use-units";

// Leaflet touches `window` when it loads: the map is drawn in the browser only. Its code starts
// downloading as soon as this module runs, not after hydration, so the first markers come sooner.
const loadMap = () => import("../map/CallMap");
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
        <div key={notice.id} className="notice" role={notice.action ? "status" : "alert"}>
          <span>{notice.text}</span>
          {notice.action && (
            <button type="button" className="action-undo" onClick={() => { notice.action!.run(); dismiss(notice.id); }}>
              {notice.action.label} <kbd>z</kbd>
            </button>
          )}
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

function DashboardView({ basemap, personId }: { basemap: Basemap; personId: string }) {
  const canTrain = useCan("train");
  // Taking calls is a dispatcher's (a trainer's training calls need an exercise the form does not ask for).
  const canTakeCalls = useCan("dispatch");
  const [mapDrawn, setMapDrawn] = useState(false);
  const onMapDrawn = useCallback(() => setMapDrawn(true), []);
  const board = useBoard();
  const queue = useQueueSections();
  const loaded = queue.loaded;
  // Calls already on screen at load (each queued incident's latest) are not news when a change names them.
  const known = useMemo(() => new Set(loaded.map((incident) => incident.latest_call.conversation_id)), [loaded]);
  const feed = useChangeFeed(board.data?.cursor, known);
  // The running or paused exercise's incidents alert while it is shown (not hidden by the header's switch).
  const liveExercise = useCurrentExercise().live?.id;
  const alerts = useAlerts(useExerciseVisibility() === "show" ? liveExercise : undefined);
  const error = feed.error ?? board.error ?? queue.error;
  const [command, setCommand] = useState<MapCommand | null>(null);
  const send = useCallback((request: MapRequest) => setCommand((last) => ({ ...request, seq: (last?.seq ?? 0) + 1 }) as MapCommand), []);
  const [drawer, setDrawer] = useState<DrawerName | null>(null);
  const [incidentId, setIncidentIdState] = useState<string | null>(null);
  // Where the open incident was opened from (its queue row, a map popup): the focus goes back there.
  const openedFrom = useRef<Element | null>(null);
  const setIncidentId = useCallback((id: string | null) => {
    if (id !== null) {
      openedFrom.current = document.activeElement;
      // The incident opens where a drawer would cover it.
      setDrawer(null);
    }
    setIncidentIdState(id);
  }, []);
  const returnFocus = useCallback(() => {
    const origin = openedFrom.current;
    const row = incidentId ? document.querySelector<HTMLElement>(`.queue-item[data-incident-id="${CSS.escape(incidentId)}"] .queue-title`) : null;
    const fromOrigin = origin instanceof HTMLElement && origin.isConnected && origin !== document.body ? origin : null;
    // A corrected call may leave its incident, and the incident the queue: then the open panel, else the queue.
    (fromOrigin ?? row ?? document.querySelector<HTMLElement>(".incident-detail, .queue-list .queue-title"))?.focus();
  }, [incidentId]);
  // A call is shown where its incident's marker is: the popup that opens is its incident's (a drawer over the map closes).
  const showCall = useCallback(
    (call: CallRecord) => {
      if (call.latitude !== null && call.longitude !== null) {
        setDrawer(null);
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

  // Opening a drawer takes the focus into it (its field marked to take it, else the drawer); closing
  // one the focus was in gives it back to its header button.
  const showDrawer = useCallback((name: DrawerName | null) => {
    const leaving = document.activeElement?.closest<HTMLElement>(".drawer");
    if (name === "call") markFormOpened();
    flushSync(() => setDrawer(name));
    const opened = name === null ? null : document.getElementById(`drawer-${name}`);
    if (opened) (opened.querySelector<HTMLElement>("[data-autofocus]") ?? opened).focus({ preventScroll: true });
    else if (leaving) drawerToggle(leaving.dataset.drawer as DrawerName)?.focus();
  }, []);
  const closeDrawer = useCallback(() => showDrawer(null), [showDrawer]);
  const toggleDrawer = useCallback((name: DrawerName) => showDrawer(drawer === name ? null : name), [drawer, showDrawer]);
  // The new call's button heads the incident column (a call makes an incident), open or not.
  const newCall = canTakeCalls ? <DrawerToggle name="call" open={drawer} onToggle={toggleDrawer} /> : null;
  // "+ Incident" on a unit: the form opens as that unit's own report (the draft keeps what
  // was typed). The dashboard itself does not follow the draft: a keystroke re-renders the form only.
  const newIncidentFrom = useCallback(
    (unit: { id: string; call_sign: string }) => {
      markFormOpened();
      changeCallDraft(personId, { unit: { id: unit.id, call_sign: unit.call_sign } });
      showDrawer("call");
    },
    [personId, showDrawer],
  );
  const [sizes, setSizes] = usePanelSizes(personId);
  const hasUnits = (useUnits().data?.units.length ?? 0) > 0;

  return (
    <div className="dashboard-page">
      <a className="skip-link" href="#queue-title">Skip to the incident queue</a>
      <header className="top-bar">
        <h1>Mayday dispatch</h1>
        <LiveStatus mode={feed.mode} updatedAt={feed.updatedAt} error={error} />
        <BacklogBanner />
        <ExerciseBanner />
        <ExerciseToggle />
        <AlertControls alerts={alerts} />
        <DrawerToggles open={drawer} onToggle={toggleDrawer} />
        <PersonMenu />
      </header>
      <main className={`dashboard${hasUnits ? "" : " no-units"}`} style={gridShares(sizes)}>
        <IncidentQueue
          sections={queue.sections}
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
        <PanelResizer handle={0} sizes={sizes} onResize={setSizes} />
        {incidentId !== null ? (
          <IncidentDetail
            key={incidentId}
            id={incidentId}
            headActions={newCall}
            onClose={() => {
              returnFocus();
              setIncidentId(null);
            }}
            onShowOnMap={showCall}
            onDone={returnFocus}
          />
        ) : (
          <section className="panel incident-slot" aria-labelledby="incident-slot-title">
            <header className="panel-head">
              <h2 id="incident-slot-title">Incident</h2>
              {newCall}
            </header>
            <p className="muted">No incident open. Choose one in the queue (<kbd>j</kbd>, <kbd>k</kbd>, Enter), in the New strip (<kbd>l</kbd>) or on the map: its calls, units and notes show here.</p>
          </section>
        )}
        <PanelResizer handle={1} sizes={sizes} onResize={setSizes} />
        <section className="panel map-panel" aria-labelledby="map-title">
          <header className="panel-head">
            <h2 id="map-title">Live map</h2>
            <MapRegions onRegion={showRegion} onFitAll={fitAll} />
            <details className="map-legend-box">
              <summary>Legend</summary>
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
            </details>
          </header>
          <CallMap
            basemap={basemap}
            command={command}
            openBounds={board.data?.open_bounds}
            onDrawn={onMapDrawn}
            onSelectIncident={setIncidentId}
          />
        </section>
        {hasUnits && <PanelResizer handle="rows" sizes={sizes} onResize={setSizes} />}
        {hasUnits && (
          // The board scrolls in its frame, which takes the focus so the keyboard can scroll it too.
          <div className="units-frame" role="group" aria-labelledby="units-title" tabIndex={0}>
            <UnitBoard openIncidentId={incidentId} onSelectIncident={setIncidentId} onNewIncident={canTakeCalls ? newIncidentFrom : undefined} />
          </div>
        )}
        {canTakeCalls && (
          <Drawer name="call" open={drawer === "call"} onClose={closeDrawer}>
            <CallTakingForm personId={personId} onSaved={closeDrawer} />
          </Drawer>
        )}
        <Drawer name="history" open={drawer === "history"} onClose={closeDrawer}>
          <HistoryPanel onShowOnMap={showCall} enabled={mapDrawn && drawer === "history"} />
        </Drawer>
        <Drawer name="training" open={drawer === "training"} onClose={closeDrawer}>
          {canTrain && <SimulationForm onSimulated={showScenario} />}
          <ExercisePanel />
        </Drawer>
      </main>
      <Notices />
      <KeyboardHelp />
    </div>
  );
}

/** The person's panel sizes as the grid's track weights (app/globals.css, "Layout"). */
function gridShares({ columns, rows }: PanelSizes): CSSProperties {
  return {
    "--queue-share": `${columns[0]}fr`,
    "--incident-share": `${columns[1]}fr`,
    "--side-share": `${columns[2]}fr`,
    "--map-share": `${rows[0]}fr`,
    "--units-share": `${rows[1]}fr`,
  } as CSSProperties;
}

export function Dashboard({ basemap, person }: { basemap: Basemap; person: WhoAmI }) {
  return (
    <Providers>
      <PersonProvider person={person}>
        <DashboardView basemap={basemap} personId={person.id} />
      </PersonProvider>
    </Providers>
  );
}
