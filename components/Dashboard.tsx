"use client";

import dynamic from "next/dynamic";
import { useCallback, useState } from "react";
import { SEVERITIES } from "@/lib/vocabulary";
import { ApiRequestError } from "./api";
import { SEVERITY_LABEL } from "./call-status";
import type { MapCommand } from "./CallMap";
import { CallQueue } from "./CallQueue";
import { ExerciseBanner, ExercisePanel } from "./ExercisePanel";
import { formatClock } from "./format";
import { HistoryPanel } from "./HistoryPanel";
import { Providers, useNoticeContext } from "./providers";
import { REGIONS } from "./regions";
import { severitySvg } from "./SeverityIcon";
import { SimulationForm } from "./SimulationForm";
import { POLL_MS, useLiveCalls } from "./use-calls";

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

function LiveStatus({ updatedAt, error }: { updatedAt: number; error: Error | null }) {
  const unreachable = error instanceof ApiRequestError && error.unreachable;
  return (
    <>
      <p className="live-status" aria-live="off">
        <span className={`live-dot${error ? " down" : ""}`} aria-hidden="true" />
        {updatedAt > 0 ? (
          <>Last updated <time data-testid="last-updated" dateTime={new Date(updatedAt).toISOString()}>{formatClock(new Date(updatedAt))}</time></>
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

function DashboardView({ tileUrl }: { tileUrl: string }) {
  const [mapDrawn, setMapDrawn] = useState(false);
  const onMapDrawn = useCallback(() => setMapDrawn(true), []);
  const live = useLiveCalls(mapDrawn);
  const [command, setCommand] = useState<MapCommand | null>(null);
  const send = useCallback((request: MapRequest) => setCommand((last) => ({ ...request, seq: (last?.seq ?? 0) + 1 }) as MapCommand), []);
  const showCall = useCallback((id: string) => send({ kind: "call", id }), [send]);
  const showScenario = useCallback(
    (scenario: string) => {
      const region = REGIONS.find((candidate) => candidate.scenario === scenario);
      if (region) send({ kind: "region", bounds: region.bounds });
    },
    [send],
  );

  return (
    <>
      <a className="skip-link" href="#queue-title">Skip to the call queue</a>
      <header className="top-bar">
        <h1>Mayday dispatch</h1>
        <LiveStatus updatedAt={live.updatedAt} error={live.error} />
        <ExerciseBanner />
      </header>
      <main className="dashboard">
        <section className="panel map-panel" aria-labelledby="map-title">
          <header className="panel-head">
            <h2 id="map-title">Live map</h2>
            <nav className="map-jumps" aria-label="Map regions">
              {REGIONS.map((region) => (
                <button key={region.scenario} type="button" onClick={() => showScenario(region.scenario)}>{region.label}</button>
              ))}
              <button type="button" onClick={() => send({ kind: "fit" })}>Fit all</button>
            </nav>
          </header>
          <CallMap calls={live.calls} tileUrl={tileUrl} command={command} onDrawn={onMapDrawn} />
          <ul className="map-legend" aria-label="Marker legend">
            {SEVERITIES.map((level) => (
              <li key={level}>
                <span className="sev-icon" dangerouslySetInnerHTML={{ __html: severitySvg(level, 16) }} /> {SEVERITY_LABEL[level]}
              </li>
            ))}
            <li><span className="legend-faded" aria-hidden="true" /> Faded: resolved or failed</li>
            <li><span className="legend-cluster" aria-hidden="true">12</span> Group of calls, coloured by its most severe</li>
          </ul>
        </section>
        <CallQueue calls={live.calls} newest={live.newest} loading={live.isLoading} onSelect={showCall} />
        <HistoryPanel onShowOnMap={showCall} liveComplete={live.complete} />
        <SimulationForm onSimulated={showScenario} />
        <ExercisePanel />
      </main>
      <Notices />
    </>
  );
}

export function Dashboard({ tileUrl }: { tileUrl: string }) {
  return (
    <Providers>
      <DashboardView tileUrl={tileUrl} />
    </Providers>
  );
}
