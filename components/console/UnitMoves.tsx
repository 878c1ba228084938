"use client";

import { type KeyboardEvent, useLayoutEffect, useRef } from "react";
import type { Unit } from "@/lib/units/schema";
import { NEXT_UNIT_STATES, UNIT_STATE_KEYS, UNIT_STATES } from "@/lib/units/states";
import { typing } from "./KeyboardHelp";
import { useCan } from "../shared/person";
import { UNDO_OFFERED_MS } from "../shared/use-calls";
import { unitStateLabel, useUnitStateChange } from "../shared/use-units";

export { unitStateLabel };

const BY_KEY = new Map(UNIT_STATES.flatMap((state) => (UNIT_STATE_KEYS[state] ? [[UNIT_STATE_KEYS[state], state] as const] : [])));

/**
 * The unit row that held the focus when a move (or its undo) was made, and where: the row's buttons
 * are the unit's next states, so the move takes away the focused one and the focus would fall to
 * the page. It goes back to the same row (the board's or the incident's) once the move is drawn.
 */
let focusedRow: { unitId: string; inIncident: boolean; at: number } | null = null;

function keepFocusOnRow(unit: { id: string }): void {
  const row = document.activeElement?.closest<HTMLElement>(".unit-row");
  const lost = document.activeElement === null || document.activeElement === document.body;
  if (row?.dataset.unitId === unit.id) focusedRow = { unitId: unit.id, inIncident: row.closest(".incident-units") !== null, at: Date.now() };
  else if (!lost || focusedRow?.unitId !== unit.id) focusedRow = null;
}

function useFocusStaysOnRow(unit: Unit, group: React.RefObject<HTMLSpanElement | null>): void {
  useLayoutEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    const here = group.current;
    if (!lost || !here || focusedRow?.unitId !== unit.id || Date.now() - focusedRow.at > UNDO_OFFERED_MS) return;
    if ((here.closest(".incident-units") !== null) !== focusedRow.inIncident) return;
    here.querySelector("button")?.focus();
  }, [unit.id, unit.state, group]);
}

/**
 * A unit's next states (lib/units/states.ts NEXT_UNIT_STATES), one button each and one key each on
 * the unit's row (e en route, o on scene, t transporting, h at hospital, v available, x out of
 * service): the dispatcher's entry of the crew's report, recorded under their name. The row's keys
 * are its own: a unit key never reaches the incident around it (whose e would move the incident).
 */
export function useUnitMoves(unit: Unit) {
  const mayDispatch = useCan("dispatch");
  const group = useRef<HTMLSpanElement>(null);
  const { move } = useUnitStateChange(keepFocusOnRow);
  const next = mayDispatch ? NEXT_UNIT_STATES[unit.state] : [];
  useFocusStaysOnRow(unit, group);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (next.length === 0 || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const state = BY_KEY.get(event.key);
    if (!state) return;
    event.preventDefault();
    event.stopPropagation();
    if (!next.includes(state)) return;
    keepFocusOnRow(unit);
    void move(unit, state);
  };
  const buttons =
    next.length === 0 ? null : (
      <span ref={group} className="unit-moves" role="group" aria-label={`${unit.call_sign} reports`}>
        {next.map((state) => (
          <button key={state} type="button" className={`action-unit-state action-unit-${state}`} onClick={() => { keepFocusOnRow(unit); void move(unit, state); }}>
            {unitStateLabel(state)}
            <kbd>{UNIT_STATE_KEYS[state]}</kbd>
          </button>
        ))}
      </span>
    );
  return { onKeyDown, buttons };
}
