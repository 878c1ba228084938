"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { humanize } from "../shared/call-status";
import { debriefCsvUrl, type Debrief, getDebrief } from "./exercise-api";
import { FigurePage } from "../shared/FigurePage";

const seconds = (value: number | null) => (value === null ? "–" : `${Math.round(value)} s`);

/** Planned against actual calls per exercise minute, as two lines. */
function PerMinuteChart({ perMinute }: { perMinute: Debrief["calls_per_minute"] }) {
  const width = 600;
  const height = 160;
  const top = Math.max(1, ...perMinute.map((entry) => Math.max(entry.planned, entry.actual)));
  const x = (minute: number) => (perMinute.length <= 1 ? 0 : (minute / (perMinute.length - 1)) * width);
  const y = (count: number) => height - (count / top) * height;
  const line = (value: (entry: Debrief["calls_per_minute"][number]) => number) =>
    perMinute.map((entry, index) => `${index === 0 ? "M" : "L"}${x(entry.minute).toFixed(1)},${y(value(entry)).toFixed(1)}`).join(" ");
  return (
    <figure>
      <svg className="debrief-chart" viewBox={`-4 -4 ${width + 8} ${height + 8}`} role="img"
        aria-label={`Calls per exercise minute, planned (dashed) and actual (solid); peak ${top}`}>
        <path className="planned" d={line((entry) => entry.planned)} />
        <path className="actual" d={line((entry) => entry.actual)} />
      </svg>
      <figcaption className="muted">Calls per exercise minute: planned (dashed) and released (solid), 0 to {top}.</figcaption>
    </figure>
  );
}

function DebriefBody({ id }: { id: string }) {
  const debrief = useQuery({ queryKey: ["debrief", id], queryFn: () => getDebrief(id), refetchInterval: 10_000 });
  if (debrief.isPending) return <p className="muted">Loading the debrief…</p>;
  if (debrief.isError) return <p className="form-error" role="alert">{debrief.error.message}</p>;
  const data = debrief.data;
  return (
    <>
      <section className="panel">
        <dl className="sim-figures">
          <dt>State</dt><dd>{data.state}</dd>
          <dt>Calls released</dt><dd data-testid="debrief-released">{data.released}</dd>
          <dt>Abandoned</dt><dd>{data.abandoned}</dd>
          <dt>Never dispatched</dt><dd data-testid="debrief-never-dispatched">{data.never_dispatched}</dd>
          <dt>Longest queue</dt><dd>{data.longest_queue} calls</dd>
          <dt>Longest wait</dt><dd>{seconds(data.longest_wait_seconds)}</dd>
        </dl>
        <p>
          <a href={debriefCsvUrl(id)} download>Download CSV</a>{" "}
          {/* The same rule (docs/reports.md), with the split by type and the share within 60 s; the window ends after as_of. */}
          <Link href={`/reports?exercise_id=${encodeURIComponent(id)}&to=${new Date(Date.parse(data.as_of) + 60_000).toISOString().slice(0, 16)}`}>
            Dispatch intervals report
          </Link>
        </p>
      </section>
      <section className="panel" aria-labelledby="dispatch-title">
        <h2 id="dispatch-title">Time from call to dispatch</h2>
        <table>
          <thead><tr><th>Severity</th><th>Dispatched</th><th>p50</th><th>p90</th><th>Max</th></tr></thead>
          <tbody>
            {data.dispatch_times.map((row) => (
              <tr key={row.severity}>
                <td>{humanize(row.severity)}</td><td>{row.dispatched}</td><td>{seconds(row.p50_seconds)}</td>
                <td>{seconds(row.p90_seconds)}</td><td>{seconds(row.max_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel" aria-labelledby="rate-title">
        <h2 id="rate-title">Calls per minute</h2>
        <PerMinuteChart perMinute={data.calls_per_minute} />
      </section>
    </>
  );
}

/** The debrief of one exercise (GET /api/exercises/{id}/debrief), for the trainer. */
export function DebriefView({ id }: { id: string }) {
  return (
    <FigurePage title="Exercise debrief">
      <DebriefBody id={id} />
    </FigurePage>
  );
}
