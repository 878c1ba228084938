import { isEmsUnitType } from "@/lib/units/states";
import { humanize } from "../shared/call-status";
import { type IntervalBar, IntervalBars } from "./IntervalBars";
import type { IntervalsReport } from "./report-api";

type UnitIntervals = IntervalsReport["units"];
type Figures = UnitIntervals["overall"];
type IntervalName = "turnout" | "travel" | "response";

const INTERVALS: { name: IntervalName; label: string; what: string }[] = [
  { name: "turnout", label: "Turnout", what: "from the unit's dispatch to en route" },
  { name: "travel", label: "Travel", what: "from en route to on scene" },
  { name: "response", label: "Response", what: "from the unit's dispatch to on scene" },
];

const seconds = (value: number | null) => (value === null ? "–" : `${Math.round(value)} s`);
const share = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)} %`);

/** A unit type's targets (docs/reports.md, "Intervals per unit"): NFPA 1710's unless configured. */
function targetsOf(type: string, targets: UnitIntervals["targets"]): Record<IntervalName, number> {
  const turnout = isEmsUnitType(type) ? targets.turnout_ems_seconds : targets.turnout_fire_seconds;
  return { turnout, travel: targets.travel_seconds, response: turnout + targets.travel_seconds };
}

function FigureCells({ figures }: { figures: Figures }) {
  return (
    <>
      <td>{figures.assignments}</td>
      {INTERVALS.map(({ name }) => {
        const interval = figures[name];
        return [
          <td key={`${name}-p50`}>{seconds(interval.p50_seconds)}</td>,
          <td key={`${name}-p90`}>{seconds(interval.p90_seconds)}</td>,
          <td key={`${name}-within`}>{share(interval.within_target_share)}</td>,
        ];
      })}
    </>
  );
}

function FiguresTable({ caption, first, rows }: { caption: string; first: string; rows: { key: string; label: string; figures: Figures }[] }) {
  return (
    <table className="unit-intervals-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th rowSpan={2} scope="col">{first}</th>
          <th rowSpan={2} scope="col">Sent</th>
          {INTERVALS.map(({ name, label }) => <th key={name} colSpan={3} scope="colgroup">{label}</th>)}
        </tr>
        <tr>
          {INTERVALS.map(({ name, label }) => [
            <th key={`${name}-p50`} scope="col" aria-label={`${label} p50`}>p50</th>,
            <th key={`${name}-p90`} scope="col" aria-label={`${label} p90`}>p90</th>,
            <th key={`${name}-within`} scope="col" aria-label={`${label} within target`}>Within target</th>,
          ])}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            <FigureCells figures={row.figures} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The units' turnout, travel and response (the report's `units`): per unit type and per unit, in
 * tables and in a chart per interval, each row against its own target (NFPA 1710's by default).
 */
export function UnitIntervalsReport({ units }: { units: UnitIntervals }) {
  const { targets } = units;
  const types = units.by_unit_type.map((group) => ({ key: `type:${group.unit_type}`, label: humanize(group.unit_type), type: group.unit_type, figures: group }));
  const each = units.by_unit.map((unit) => ({ key: `unit:${unit.unit_id}`, label: unit.call_sign, type: unit.unit_type, figures: unit }));
  const bars = (name: IntervalName, rows: typeof types): IntervalBar[] =>
    rows.map((row) => ({
      key: row.key,
      label: row.label,
      p50: row.figures[name].p50_seconds,
      p90: row.figures[name].p90_seconds,
      target: targetsOf(row.type, targets)[name],
    }));
  return (
    <section className="panel" aria-labelledby="units-title" data-testid="report-units">
      <h2 id="units-title">Units: turnout, travel and response</h2>
      <p className="muted">
        Units sent in the window: {units.overall.assignments}. Targets (NFPA 1710): turnout {targets.turnout_ems_seconds} s for
        ambulances, {targets.turnout_fire_seconds} s for other units; travel {targets.travel_seconds} s; response their sum.
        {units.overall.unit_initiated > 0 &&
          ` Of them, ${units.overall.unit_initiated} reported the incident themselves (they came upon it): on scene from the start, their turnout and response count as 0 s and their travel is not measured.`}
        Response starts at the unit&rsquo;s dispatch, not at the call&rsquo;s arrival.
      </p>
      {units.overall.assignments === 0 ? (
        <p>No unit was sent in the window.</p>
      ) : (
        <>
          <FiguresTable caption="Per unit type" first="Type" rows={types} />
          <FiguresTable caption="Per unit" first="Unit" rows={each} />
          <div className="unit-interval-charts">
            {INTERVALS.map(({ name, label, what }) => (
              <IntervalBars
                key={name}
                rows={[...bars(name, types), ...bars(name, each)]}
                title={`${label} seconds (${what}) per unit type and per unit, p50 and p90 against each one's target`}
                caption={`${label}, per unit type then per unit:`}
              />
            ))}
          </div>
        </>
      )}
    </section>
  );
}
