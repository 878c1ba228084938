"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Unit } from "@/lib/units/schema";
import { UNIT_STATE_RULES, type UnitState } from "@/lib/units/states";
import { inWords } from "./call-status";
import { ApiRequestError, assignUnits, changeUnitState, listUnits, recommendUnits, undoUnitState } from "./api";
import { useMoveQuestion } from "./MoveDialog";
import { useNotify } from "./providers";
import { rereadQueries } from "./reread";
import { UNDO_OFFERED_MS } from "./use-calls";

/** A unit's state as the console reads it: "on scene". */
export const unitStateLabel = (state: UnitState) => inWords(state);

/** One unit's move made here: the unit and the move's id, what its undo reverts. */
interface MadeMove {
  unit: { id: string; call_sign: string };
  changeId: string;
}

/** "E1", "E1 and E2", "E1, E2 and L1". */
const callSigns = (moves: MadeMove[]) => {
  const names = moves.map(({ unit }) => unit.call_sign);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
};

/**
 * Each move made here, offered for undo (docs/dashboard.md, "Dispatch reason, disposition,
 * undo"): the notice's Undo (key z) for UNDO_OFFERED_MS reverts exactly those moves on the server
 * (lib/units/undo-state.ts), every unit of a plan sent with one press, or the notice says which
 * were not undone and why. `undoing` is told the first unit, so the console keeps the person's
 * focus on its row (UnitMoves.tsx).
 */
function useUnitUndoOffer(undoing?: (unit: { id: string }) => void) {
  const client = useQueryClient();
  const notify = useNotify();
  const undo = useMutation({
    mutationFn: async (moves: MadeMove[]) => {
      const results = await Promise.allSettled(moves.map(({ unit, changeId }) => undoUnitState(unit.id, changeId)));
      const refused = moves.flatMap((move, index) => {
        const result = results[index];
        return result.status === "rejected" ? [`${move.unit.call_sign}: ${result.reason instanceof ApiRequestError ? result.reason.message : "unexpected error"}`] : [];
      });
      if (refused.length > 0) throw new Error(refused.join("; "));
      return results.map((result) => (result as PromiseFulfilledResult<Unit>).value);
    },
    onMutate: ([first]) => undoing?.(first.unit),
    onError: (error, moves) => notify(`${moves.length === 1 ? `${moves[0].unit.call_sign}'s move was` : "Not every move was"} not undone: ${error.message}`),
    onSuccess: (units: Unit[]) =>
      notify(units.length === 1 ? `Undone: ${units[0].call_sign} is ${unitStateLabel(units[0].state)} again.` : `Undone: ${units.map((unit) => unit.call_sign).join(", ")} are back as they were.`),
    onSettled: () => rereadUnitViews(client),
  });
  return (text: string, moves: MadeMove[]) => notify(text, { ms: UNDO_OFFERED_MS, action: { label: "Undo", run: () => undo.mutate(moves) } });
}

/** The roster with each unit's state (GET /api/units): read again when the change feed carries a unit. */
export function useUnits() {
  return useQuery({ queryKey: ["units"], queryFn: listUnits, staleTime: Infinity });
}

interface Refused {
  call_sign: string;
  reason: string;
}

/**
 * Sends units to an incident: one from its Send, a response plan's with one press. A unit that is
 * not free is refused by the server (409 UNIT_UNAVAILABLE, with why, nothing sent); the dispatcher
 * is asked, naming each, and a yes sends them all with confirmation.
 */
export function useSendUnits() {
  const client = useQueryClient();
  const notify = useNotify();
  const offerUndo = useUnitUndoOffer();
  return useMutation({
    mutationFn: async ({ unitIds, incidentId }: { unitIds: string[]; incidentId: string }) => {
      try {
        return await assignUnits(incidentId, unitIds, false);
      } catch (error) {
        const refused = (error as ApiRequestError).code === "UNIT_UNAVAILABLE" ? ((error as ApiRequestError).details.units as Refused[]) : undefined;
        if (!refused) throw error;
        const why = refused.map((unit) => `${unit.call_sign} is ${unit.reason}`).join("; ");
        if (!window.confirm(`${why}. Send ${unitIds.length === 1 ? "it" : "them all"} to this incident anyway?`)) return undefined;
        return assignUnits(incidentId, unitIds, true);
      }
    },
    onError: (error, { unitIds }) => notify(`${unitIds.length === 1 ? "The unit was" : "The units were"} not sent: ${error.message}`),
    onSuccess: (answer) => {
      const sent = (answer?.assignments ?? []).map((assignment) => ({ unit: { id: assignment.unit_id, call_sign: assignment.call_sign }, changeId: assignment.state_change_id }));
      if (sent.length > 0) offerUndo(`${callSigns(sent)} sent.`, sent);
    },
    // Not awaited: the mutation would stay pending until the roster is read again, and Send ignores
    // a press while pending: a second try right after a "no" would be lost.
    onSettled: () => rereadUnitViews(client),
  });
}

/** After a unit moves: the roster, the recommendations and the incidents it follows are read again. */
function rereadUnitViews(client: ReturnType<typeof useQueryClient>): void {
  void rereadQueries(client, { queryKey: ["units"] });
  void rereadQueries(client, { queryKey: ["unit-recommendation"] });
  void rereadQueries(client, { queryKey: ["incident"] });
  void rereadQueries(client, { queryKey: ["live"] });
}

/**
 * The incident's response plan filled and the first `shown` units the server recommends, each with
 * why (GET /api/incidents/{id}/units?limit=): read again on every unit's move, so only what is shown.
 */
export function useRecommendation(incidentId: string | null, shown: number) {
  return useQuery({
    queryKey: ["unit-recommendation", incidentId, shown],
    queryFn: () => recommendUnits(incidentId!, shown),
    enabled: incidentId !== null,
    staleTime: Infinity,
  });
}

/**
 * A crew's report entered by the dispatcher (POST /api/units/{id}/state; the server records it
 * under the person's name). A unit that clears (available, out of service) while it is the last
 * on its incident asks how the incident ended: the disposition closes it (docs/units.md,
 * "Incidents follow their units"); "leave it open" clears the unit only.
 */
export function useUnitStateChange(undoing?: (unit: { id: string }) => void) {
  const client = useQueryClient();
  const notify = useNotify();
  const ask = useMoveQuestion();
  const offerUndo = useUnitUndoOffer(undoing);
  const change = useMutation({
    mutationFn: ({ unit, state, disposition }: { unit: Unit; state: UnitState; disposition?: string }) => changeUnitState(unit.id, state, disposition),
    onError: (error, { unit }) => notify(`${unit.call_sign} was not moved: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`),
    onSuccess: (moved: Unit, { state }) => {
      if (moved.state === state && moved.state_change_id) offerUndo(`${moved.call_sign} is ${unitStateLabel(state)}.`, [{ unit: moved, changeId: moved.state_change_id }]);
    },
    onSettled: () => rereadUnitViews(client),
  });
  const move = async (unit: Unit, state: UnitState) => {
    const roster = client.getQueryData<{ units: Unit[] }>(["units"])?.units ?? [];
    const last = unit.incident_id !== null && !UNIT_STATE_RULES[state].assigned && roster.filter((other) => other.incident_id === unit.incident_id).length === 1;
    if (!last) return change.mutate({ unit, state });
    const answer = await ask({ kind: "disposition", title: `${unit.call_sign} is the last unit on this incident: close it?`, mayStayOpen: true });
    if (!answer) return;
    change.mutate({ unit, state, disposition: "disposition" in answer ? answer.disposition : undefined });
  };
  return { move, isPending: change.isPending };
}
