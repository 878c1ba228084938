"use client";

import type { IncidentDetail } from "@/lib/incidents/schema";
import { type Disposition, DISPOSITION_LABEL } from "@/lib/incidents/dispositions";
import type { Recommendation, Unit } from "@/lib/units/schema";
import type { UnitState } from "@/lib/units/states";
import { inWords, isOpen } from "../shared/call-status";
import { formatTime, formatWaiting } from "../shared/format";
import { useMayAct } from "../shared/person";
import { unitTimer } from "./UnitBoard";
import { unitStateLabel, useUnitMoves } from "./UnitMoves";
import { useIncidentStatusChange } from "../shared/use-calls";
import { useNow } from "../shared/use-now";
import { useRecommendation, useSendUnits, useUnits } from "../shared/use-units";

/** How many of the server's recommendations the incident shows (its first: the plan's, then the nearest). */
const RECOMMENDED_SHOWN = 5;

/** The states that mean a unit has arrived: the incident is "on scene" while one of its units is. */
const ARRIVED: readonly UnitState[] = ["on_scene", "available_on_scene"];

/**
 * What an incident's units do, as one marker beside its status (docs/dashboard.md, "The incident's
 * units"): "On scene" once one has arrived, else "En route" or "Unit sent"; nothing without units.
 * A marker, not a status of its own: the workflow and the API stay as they are, and the marker
 * follows the crews' reports as they come.
 */
export function UnitsMarker({ units }: { units: Unit[] }) {
  const marker = units.some((unit) => ARRIVED.includes(unit.state))
    ? { text: "On scene", tone: "on-scene" }
    : units.some((unit) => unit.state === "en_route")
      ? { text: "Units en route", tone: "en-route" }
      : units.some((unit) => unit.state === "dispatched")
        ? { text: "Unit sent", tone: "sent" }
        : null;
  if (!marker) return null;
  return <span className={`units-marker units-${marker.tone}`} data-testid="units-marker">{marker.text}</span>;
}

function IncidentUnitRow({ unit, now }: { unit: Unit; now: number }) {
  const { onKeyDown, buttons } = useUnitMoves(unit);
  const { seconds, overdue } = unitTimer(unit, now);
  return (
    <li className={`unit-row unit-${unit.state}${overdue ? " is-overdue" : ""}`} data-unit-id={unit.id} onKeyDown={onKeyDown}>
      <span className="unit-title" title={`${unit.name} (${unit.type})`}>{unit.call_sign}</span>
      <span className="unit-state">{unitStateLabel(unit.state)}</span>
      <span className="unit-timer" title={overdue ? "Longer in this state than expected" : "Time in this state"}>
        {formatWaiting(seconds)}
        {overdue && <span className="unit-overdue"> overdue</span>}
      </span>
      {buttons}
    </li>
  );
}

/** The move that brought the incident where it is, when it says why: a dispatch without a unit, a close. */
function MoveRecord({ incident }: { incident: IncidentDetail }) {
  const move = incident.status_change;
  if (!move || move.status !== incident.status || move.undoes !== null) return null;
  if (move.dispatch_reason) {
    return <p className="move-record" data-testid="move-record">Dispatched without a unit by {move.changed_by_name} at {formatTime(move.changed_at)}: {move.dispatch_reason}</p>;
  }
  if (!move.disposition) return null;
  const how = DISPOSITION_LABEL[move.disposition as Disposition] ?? "Closed when its last unit cleared";
  return <p className="move-record" data-testid="move-record">Closed: {how} ({move.changed_by_name}, {formatTime(move.changed_at)})</p>;
}

/**
 * The incident's response plan as the server filled it (docs/dashboard.md, "The incident's
 * units"): how many of its units are free, why each slot without one is empty, and one Send for
 * every unit that fills a slot (p focuses it). The server checks each unit again when it is sent.
 */
function PlanSend({ plan, incidentId }: { plan: NonNullable<Recommendation["plan"]>; incidentId: string }) {
  const send = useSendUnits();
  const filled = plan.slots.filter((slot) => slot.unit_id !== null);
  const empty = plan.slots.filter((slot) => slot.unit_id === null);
  const what = `${inWords(plan.emergency_type)}, ${plan.severity}`;
  return (
    <div className="incident-plan" data-testid="incident-plan">
      <p>
        Response plan ({what}): {filled.length} of {plan.slots.length} units free
      </p>
      {empty.length > 0 && (
        <ul className="plan-unfilled" aria-label="Slots of the plan no unit fills">
          {empty.map((slot, index) => (
            <li key={index}>{slot.unfilled_reason}</li>
          ))}
        </ul>
      )}
      {filled.length > 0 && (
        <button
          type="button"
          className="action-send-plan"
          aria-busy={send.isPending}
          onClick={() => send.isPending || send.mutate({ unitIds: filled.map((slot) => slot.unit_id!), incidentId })}
        >
          Send the plan: {filled.map((slot) => slot.call_sign).join(", ")}
        </button>
      )}
    </div>
  );
}

/**
 * The incident's units (docs/dashboard.md, "The incident's units"): each unit on it with its state,
 * its time in that state and its next states (i focuses the first, then its keys); the server's
 * recommendation (the response plan's units, then the nearest) with why, each with Send (u focuses the nearest, Enter or s sends),
 * and the plan's units sent with one press (p focuses it);
 * once its last unit has cleared while it is still open, the close it is waiting for.
 */
export function IncidentUnits({ incident }: { incident: IncidentDetail }) {
  const roster = useUnits().data?.units ?? [];
  const now = useNow();
  const open = isOpen(incident.status);
  const mayAct = useMayAct(incident.training);
  const recommendation = useRecommendation(open && mayAct ? incident.id : null, RECOMMENDED_SHOWN);
  const send = useSendUnits();
  const { move } = useIncidentStatusChange();
  const onIt = roster.filter((unit) => unit.incident_id === incident.id);
  const recommended = recommendation.data?.units ?? [];
  const allCleared = open && onIt.length === 0 && incident.units_sent.cleared > 0;
  return (
    <section className="incident-units" aria-labelledby="incident-units-title">
      <h3 id="incident-units-title">
        Units <UnitsMarker units={onIt} />
      </h3>
      <MoveRecord incident={incident} />
      {onIt.length > 0 ? (
        <ol className="incident-unit-list" aria-label="Units on this incident">
          {onIt.map((unit) => (
            <IncidentUnitRow key={unit.id} unit={unit} now={now} />
          ))}
        </ol>
      ) : (
        <p className="muted">{incident.units_sent.cleared > 0 ? `All ${incident.units_sent.cleared} units sent have cleared.` : "No unit sent yet."}</p>
      )}
      {allCleared && mayAct && (
        <p className="units-cleared" role="status">
          Its last unit has cleared: how did it end?{" "}
          <button type="button" className="action-close-cleared" onClick={() => void move(incident.id, "resolved")}>Close it</button>
        </p>
      )}
      {open && mayAct && (
        <>
          <h4>Recommended: the response plan, then the nearest</h4>
          {recommendation.data?.plan && <PlanSend plan={recommendation.data.plan} incidentId={incident.id} />}
          {recommendation.isPending ? (
            <p className="muted">Loading…</p>
          ) : recommended.length === 0 ? (
            <p className="muted">No free unit may be sent to this incident.</p>
          ) : (
            <ol className="incident-recommended" aria-label="Units recommended for this incident, the response plan's first">
              {recommended.map(({ unit, reason }) => (
                <li key={unit.id} className="recommended-unit" data-unit-id={unit.id}>
                  <span className="unit-title">{unit.call_sign}</span> <span className="unit-type muted">{unit.type}</span>{" "}
                  <span className="recommended-why">{reason}</span>
                  <button
                    type="button"
                    className="action-send-unit"
                    aria-busy={send.isPending}
                    onClick={() => send.isPending || send.mutate({ unitIds: [unit.id], incidentId: incident.id })}
                  >
                    Send<span className="sr-only"> {unit.call_sign} to this incident</span>
                  </button>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
