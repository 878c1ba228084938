"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { humanize } from "../shared/call-status";
import { listExercises } from "../training/exercise-api";
import { FigurePage } from "../shared/FigurePage";
import { formatTime } from "../shared/format";
import { IntervalBars } from "./IntervalBars";
import { getIntervals, intervalsCsvUrl, type IntervalsQuery, type IntervalsReport } from "./report-api";
import { UnitIntervalsReport } from "./UnitIntervalsReport";

const TARGET_SECONDS = 60;
const seconds = (value: number | null) => (value === null ? "–" : `${Math.round(value)} s`);
const share = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)} %`);

/** p50 and p90 per severity as horizontal bars, with the 60 s target as a line. */
function IntervalsChart({ groups }: { groups: IntervalsReport["by_severity"] }) {
  const rows = groups.map((group) => ({ key: group.severity, label: humanize(group.severity), p50: group.p50_seconds, p90: group.p90_seconds, target: TARGET_SECONDS }));
  return (
    <IntervalBars
      rows={rows}
      title={`Seconds from arrival to first dispatch per severity (p50 and p90, target ${TARGET_SECONDS} s)`}
      caption="Per severity:"
    />
  );
}

function ReportBody({ query }: { query: IntervalsQuery }) {
  const report = useQuery({ queryKey: ["intervals", query], queryFn: () => getIntervals(query) });
  if (report.isPending) return <p className="muted">Loading the report…</p>;
  if (report.isError) return <p className="form-error" role="alert">{report.error.message}</p>;
  const data = report.data;
  return (
    <>
      <section className="panel" aria-labelledby="overall-title">
        <h2 id="overall-title">All calls in the window</h2>
        <dl className="sim-figures" data-testid="report-overall">
          <dt>Calls</dt><dd>{data.overall.calls}</dd>
          <dt>Dispatched</dt><dd>{data.overall.dispatched}</dd>
          <dt>p50</dt><dd>{seconds(data.overall.p50_seconds)}</dd>
          <dt>p90</dt><dd>{seconds(data.overall.p90_seconds)}</dd>
          <dt>Within {TARGET_SECONDS} s</dt><dd>{share(data.overall.within_60s_share)}</dd>
          <dt>Located live</dt><dd>{data.overall.located}</dd>
          <dt>Location known p50</dt><dd>{seconds(data.overall.location_p50_seconds)}</dd>
        </dl>
        <p><a href={intervalsCsvUrl(query)} download>Download CSV</a></p>
        <IntervalsChart groups={data.by_severity} />
      </section>
      <section className="panel" aria-labelledby="groups-title">
        <h2 id="groups-title">By emergency type and severity</h2>
        <table>
          <thead>
            <tr><th>Type</th><th>Severity</th><th>Calls</th><th>Dispatched</th><th>p50</th><th>p90</th><th>Within {TARGET_SECONDS} s</th><th>Location known p50</th></tr>
          </thead>
          <tbody>
            {data.by_type_and_severity.map((group) => (
              <tr key={`${group.emergency_type}/${group.severity}`}>
                <td>{humanize(group.emergency_type)}</td><td>{humanize(group.severity)}</td><td>{group.calls}</td>
                <td>{group.dispatched}</td><td>{seconds(group.p50_seconds)}</td><td>{seconds(group.p90_seconds)}</td>
                <td>{share(group.within_60s_share)}</td><td>{seconds(group.location_p50_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <UnitIntervalsReport units={data.units} />
      <DispatchedWithoutUnit moves={data.dispatched_without_unit} />
    </>
  );
}

/** The moves to dispatched made with no unit on the incident, and why (docs/reports.md, "Dispatched without a unit"). */
function DispatchedWithoutUnit({ moves }: { moves: IntervalsReport["dispatched_without_unit"] }) {
  return (
    <section className="panel" aria-labelledby="without-unit-title">
      <h2 id="without-unit-title">Dispatched without a unit</h2>
      {moves.length === 0 ? (
        <p className="muted">None: every dispatch in the window had a unit on the incident.</p>
      ) : (
        <table className="without-unit-table" data-testid="dispatched-without-unit">
          <thead>
            <tr><th scope="col">When</th><th scope="col">Incident</th><th scope="col">Move</th><th scope="col">By</th><th scope="col">Reason</th></tr>
          </thead>
          <tbody>
            {moves.map((move) => (
              <tr key={`${move.incident_id}/${move.at}`}>
                <td>{formatTime(move.at)}</td><td>{humanize(move.emergency_type)}, {move.location}</td><td>{humanize(move.status)}</td>
                <td>{move.by}</td><td>{move.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ReportForm({ initial, onShow }: { initial: IntervalsQuery; onShow: (query: IntervalsQuery) => void }) {
  const [draft, setDraft] = useState(initial);
  const exercises = useQuery({ queryKey: ["exercises"], queryFn: listExercises });
  const set = (field: keyof IntervalsQuery) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft({ ...draft, [field]: event.target.value });
  return (
    <form
      className="panel report-form"
      onSubmit={(event) => {
        event.preventDefault();
        onShow(draft);
      }}
    >
      <label>From (UTC) <input type="datetime-local" required value={draft.from} onChange={set("from")} /></label>
      <label>To (UTC) <input type="datetime-local" required value={draft.to} onChange={set("to")} /></label>
      <label>
        Calls{" "}
        <select value={draft.calls} onChange={set("calls")}>
          <option value="real">Real calls</option>
          <option value="exercise">Exercise</option>
          <option value="both">Both</option>
        </select>
      </label>
      <label>
        Exercise{" "}
        <select value={draft.exerciseId} onChange={set("exerciseId")} disabled={draft.calls === "real"}>
          <option value="">Every exercise</option>
          {exercises.data?.exercises.map((exercise) => (
            <option key={exercise.id} value={exercise.id}>
              {exercise.scenario} {exercise.started_at ? new Date(exercise.started_at).toISOString().slice(0, 16).replace("T", " ") : "(planned)"}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

/** Dispatch intervals (GET /api/reports/intervals): how fast calls were dispatched in a window. */
export function ReportsView({ initial }: { initial: IntervalsQuery }) {
  const [query, setQuery] = useState(initial);
  return (
    <FigurePage title="Dispatch intervals">
      <ReportForm initial={initial} onShow={setQuery} />
      <ReportBody query={query} />
    </FigurePage>
  );
}
