/** One row of an interval chart: its p50 and p90 in seconds and its target. */
export interface IntervalBar {
  key: string;
  label: string;
  p50: number | null;
  p90: number | null;
  target: number;
}

const seconds = (value: number | null) => (value === null ? "–" : `${Math.round(value)} s`);

/**
 * p50 and p90 per row as horizontal bars, each row's target as a dashed mark across it (a line
 * down the chart where every row has the same target), and the figures in the image's name for
 * screen readers. The reports page's charts (docs/reports.md).
 */
export function IntervalBars({ rows, title, caption }: { rows: readonly IntervalBar[]; title: string; caption: string }) {
  const width = 560;
  const row = 34;
  const label = 90;
  const top = Math.max(...rows.map((bar) => Math.max(bar.target * 1.2, bar.p90 ?? 0)), 1);
  const x = (value: number) => label + (value / top) * (width - label - 10);
  const height = Math.max(1, rows.length) * row + 20;
  const sameTarget = rows.every((bar) => bar.target === rows[0]?.target);
  const summary = rows.map((bar) => `${bar.label}: p50 ${seconds(bar.p50)}, p90 ${seconds(bar.p90)}, target ${bar.target} s`).join("; ");
  return (
    <figure>
      <svg className="report-chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${title}. ${summary || "None."}`}>
        {rows.map((bar, index) => (
          <g key={bar.key} transform={`translate(0, ${index * row + 4})`}>
            <text x={0} y={17} className="report-label">{bar.label}</text>
            <rect className="p90" x={label} y={2} height={12} width={Math.max(0, x(bar.p90 ?? 0) - label)} />
            <rect className="p50" x={label} y={16} height={12} width={Math.max(0, x(bar.p50 ?? 0) - label)} />
            {!sameTarget && <line className="target" x1={x(bar.target)} x2={x(bar.target)} y1={-2} y2={row - 2} />}
          </g>
        ))}
        {sameTarget && rows.length > 0 && (
          <>
            <line className="target" x1={x(rows[0].target)} x2={x(rows[0].target)} y1={0} y2={height - 16} />
            <text className="report-label" x={x(rows[0].target) + 3} y={height - 4}>{rows[0].target} s</text>
          </>
        )}
      </svg>
      <figcaption className="muted">{caption} p90 (upper bar) and p50 (lower bar), 0 to {Math.round(top)} s; the dashed line is the target.</figcaption>
    </figure>
  );
}
