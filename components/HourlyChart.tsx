"use client";

import { useMemo } from "react";
import { SEVERITIES } from "@/lib/vocabulary";
import type { CallRecord } from "./api";
import { SEVERITY_LABEL, severityOf } from "./call-status";

const HOUR = 3600;
/** The chart shows at most this many hours: the latest of the filtered range. */
const MAX_HOURS = 72;

interface Bucket { start: number; critical: number; high: number; moderate: number; total: number }

function hourLabel(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit" });
}

/** Calls per hour, stacked by severity (critical at the bottom, so it is never hidden). */
export function HourlyChart({ calls, total, capped }: { calls: CallRecord[]; total: number; capped: boolean }) {
  const buckets = useMemo(() => {
    if (calls.length === 0) return [];
    const newest = Math.floor(Math.max(...calls.map((call) => call.timestamp)) / HOUR) * HOUR;
    const oldest = Math.floor(Math.min(...calls.map((call) => call.timestamp)) / HOUR) * HOUR;
    const first = Math.max(oldest, newest - (MAX_HOURS - 1) * HOUR);
    const list: Bucket[] = [];
    for (let start = first; start <= newest; start += HOUR) list.push({ start, critical: 0, high: 0, moderate: 0, total: 0 });
    for (const call of calls) {
      const bucket = list[Math.floor((call.timestamp - first) / HOUR)];
      if (!bucket) continue;
      bucket[severityOf(call.severity)] += 1;
      bucket.total += 1;
    }
    return list;
  }, [calls]);

  if (buckets.length === 0) return <p className="muted chart-empty">No calls to chart for these filters.</p>;
  const peak = Math.max(...buckets.map((bucket) => bucket.total));
  const width = 600;
  const height = 120;
  // At least a day's worth of slots, so a short range does not draw one bar the chart's width.
  const slot = width / Math.max(buckets.length, 24);
  const scale = (height - 4) / peak;
  const summary =
    `Calls per hour by severity: ${calls.length.toLocaleString()} calls over ${buckets.length} hours, ` +
    `peak ${peak} in the hour from ${hourLabel(buckets.find((bucket) => bucket.total === peak)!.start)}.`;

  return (
    <figure className="hourly-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
        {buckets.map((bucket, i) => {
          let y = height;
          return (
            <g key={bucket.start}>
              <title>
                {`${hourLabel(bucket.start)}: ${SEVERITIES.map((level) => `${bucket[level]} ${level}`).join(", ")}`}
              </title>
              {SEVERITIES.map((level) => {
                const h = bucket[level] * scale;
                y -= h;
                return h > 0 ? <rect key={level} className={`bar sev-${level}`} x={i * slot + 1} y={y} width={Math.max(1, slot - 2)} height={h} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        Calls per hour ({hourLabel(buckets[0].start)} to {hourLabel(buckets.at(-1)!.start)}), peak {peak}.{" "}
        {SEVERITIES.map((level) => (
          <span key={level} className={`legend-item sev-${level}`}>
            <span className="legend-swatch" aria-hidden="true" /> {SEVERITY_LABEL[level]}
          </span>
        ))}
        {capped && <> Based on the newest {calls.length.toLocaleString()} of {total.toLocaleString()} matching calls.</>}
      </figcaption>
    </figure>
  );
}
