"use client";

import { UNIT_STATE_RULES, UNIT_STATES } from "@/lib/units/states";
import type { Unit } from "@/lib/units/schema";
import { trainingMixReason } from "@/lib/units/training";
import { humanize } from "../shared/call-status";
import { useExerciseVisibility } from "../training/exercise-visibility";
import { formatWaiting } from "../shared/format";
import { useMayAct } from "../shared/person";
import { useIncidentDetail } from "../shared/use-calls";
import { useNow } from "../shared/use-now";
import { unitStateLabel as stateLabel, useUnitMoves } from "./UnitMoves";
import { useSendUnits, useUnits } from "../shared/use-units";

/** Seconds since the unit's last state change, and whether that is past its state's warning (lib/units/states.ts). */
export function unitTimer(unit: Pick<Unit, "state" | "state_changed_at">, now: number): { seconds: number; overdue: boolean } {
  const seconds = (now - Date.parse(unit.state_changed_at)) / 1000;
  const warnAfter = UNIT_STATE_RULES[unit.state].warnAfterSeconds;
  return { seconds, overdue: warnAfter !== null && seconds >= warnAfter };
}

function UnitRow({ unit, now, sendTo, onSelectIncident, onNewIncident }: {
  unit: Unit;
  now: number;
  /** The open incident, when the person may send units to it and it may take this unit (lib/units/training.ts). */
  sendTo: string | null;
  onSelectIncident: (id: string) => void;
  /** The unit reports an incident itself: the call form, as its report (absent: the person takes no calls). */
  onNewIncident?: (unit: Unit) => void;
}) {
  const send = useSendUnits();
  const { onKeyDown, buttons } = useUnitMoves(unit);
  const { seconds, overdue } = unitTimer(unit, now);
  const serving = unit.incident_id === sendTo && sendTo !== null;
  return (
    <li className={`unit-row unit-${unit.state}${overdue ? " is-overdue" : ""}`} data-unit-id={unit.id} onKeyDown={onKeyDown}>
      <span className="unit-title" title={`${unit.name} (${unit.type})`}>{unit.call_sign}</span>
      {unit.exercise_id !== null && <span className="exercise-badge" title="A simulated unit of an exercise: its crew reports by itself">Exercise</span>}
      <span className="unit-type muted">{unit.type}</span>
      <span className="unit-state">{stateLabel(unit.state)}</span>
      <span className="unit-timer" title={overdue ? "Longer in this state than expected" : undefined}>
        {formatWaiting(seconds)}
        {overdue && <span className="unit-overdue"> overdue</span>}
      </span>
      {unit.incident_id !== null && (
        <button type="button" className="link-button unit-incident" onClick={() => onSelectIncident(unit.incident_id!)}>
          <span className="sr-only">Serves </span>
          {unit.incident ? `${humanize(unit.incident.emergency_type)}, ${unit.incident.location}` : "an incident"}
        </button>
      )}
      {buttons}
      {onNewIncident && UNIT_STATE_RULES[unit.state].assignable && (
        <button type="button" className="action-unit-incident" aria-keyshortcuts="n" onClick={() => onNewIncident(unit)}>
          + Incident<span className="sr-only"> here, reported by {unit.call_sign}</span><kbd>n</kbd>
        </button>
      )}
      {sendTo !== null && !serving && (
        <button
          type="button"
          className="action-send-unit"
          // Not disabled while sending: a disabled button drops the keyboard's focus (after a "no", it would be lost).
          aria-busy={send.isPending}
          onClick={() => send.isPending || send.mutate({ unitIds: [unit.id], incidentId: sendTo })}
        >
          Send<span className="sr-only"> {unit.call_sign} to the open incident</span>
        </button>
      )}
    </li>
  );
}

/**
 * The unit board (docs/units.md, "The unit board"): every unit of the roster (an exercise's simulated
 * units only while training is shown) with its state, the incident it serves by its type and
 * address, how long since its last change and its next states (one click, or its key on the
 * focused row: UnitMoves.tsx), by call sign; a timer past its state's threshold turns to a warning. A free unit
 * has "+ Incident" (`n` on its row): the call form opens as the unit's own report. With an incident open, each unit the person may send to it has "Send"
 * (key `u` focuses the first free unit's, Tab the next ones; Enter or `s` sends). Read again when the change feed carries a unit; nothing is shown
 * while the roster is empty (a centre that keeps no units).
 */
export function UnitBoard({ openIncidentId, onSelectIncident, onNewIncident }: {
  openIncidentId: string | null;
  onSelectIncident: (id: string) => void;
  onNewIncident?: (unit: Unit) => void;
}) {
  const units = useUnits();
  const now = useNow();
  const open = useIncidentDetail(openIncidentId);
  const mayAct = useMayAct(open.data?.training ?? false);
  // An exercise's simulated units only while training is shown (the header's "Hide exercise calls").
  const training = useExerciseVisibility() === "show";
  const roster = (units.data?.units ?? []).filter((unit) => training || unit.exercise_id === null);
  if (roster.length === 0) return null;
  const sendTo = openIncidentId !== null && open.data && mayAct ? openIncidentId : null;
  // Training and real units never mix: a training incident is offered only its exercise's simulated units, a real one the centre's.
  const kind = { training: open.data?.training ?? false, exercise_id: open.data?.calls[0]?.exercise_id ?? null };
  const counts = UNIT_STATES.map((state) => [state, roster.filter((unit) => unit.state === state).length] as const).filter(([, count]) => count > 0);
  return (
    <section className="panel units" aria-labelledby="units-title">
      <header className="panel-head">
        <h2 id="units-title">Units</h2>
        <p className="unit-counts muted" data-testid="unit-counts">
          {counts.map(([state, count]) => `${count} ${stateLabel(state)}`).join(" · ")}
        </p>
      </header>
      <ol className="unit-list" aria-label={sendTo ? "Units; Send assigns one to the open incident" : "Units"}>
        {roster.map((unit) => (
          <UnitRow
            key={unit.id}
            unit={unit}
            now={now}
            sendTo={trainingMixReason(unit, kind) === null ? sendTo : null}
            onSelectIncident={onSelectIncident}
            onNewIncident={onNewIncident}
          />
        ))}
      </ol>
    </section>
  );
}
