"use client";

import { SEVERITIES } from "@/lib/vocabulary";
import type { HourlySeries } from "../shared/api";
import { SEVERITY_LABEL } from "../shared/call-status";

function hourLabel(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit" });
}

/**
 * Calls per hour, stacked by severity (critical at the bottom, so it is never hidden). The server
 * counts them (GET /api/live/hourly), over the latest hours of the filtered calls.
 */
export function HourlyChart({ series }: { series: HourlySeries }) {
  const buckets = series.hours;
  if (buckets.length === 0) return <p className="muted chart-empty">No calls to chart for these filters.</p>;
  const peak = Math.max(...buckets.map((bucket) => bucket.total));
  const width = 600;
  const height = 120;
  // At least a day's worth of slots, so a short range does not draw one bar the chart's width.
  const slot = width / Math.max(buckets.length, 24);
  const scale = (height - 4) / peak;
  const summary =
    `Calls per hour by severity: ${series.total.toLocaleString()} calls over ${buckets.length} hours, ` +
    `peak ${peak} in the hour from ${hourLabel(buckets.find((bucket) => bucket.total === peak)!.hour)}.`;

  return (
    <figure className="hourly-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
        {buckets.map((bucket, i) => {
          let y = height;
          return (
            <g key={bucket.hour}>
              <title>
                {`${hourLabel(bucket.hour)}: ${SEVERITIES.map((level) => `${bucket[level]} ${level}`).join(", ")}`}
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
        Calls per hour ({hourLabel(buckets[0].hour)} to {hourLabel(buckets.at(-1)!.hour)}), peak {peak}.{" "}
        {SEVERITIES.map((level) => (
          <span key={level} className={`legend-item sev-${level}`}>
            <span className="legend-swatch" aria-hidden="true" /> {SEVERITY_LABEL[level]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
