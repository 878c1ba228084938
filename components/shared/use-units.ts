"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Unit } from "@/lib/units/schema";
import { UNIT_STATE_RULES, type UnitState } from "@/lib/units/states";
import { ApiRequestError, assignUnits, changeUnitState, listUnits, recommendUnits, undoUnitState } from "./api";
import { useMoveQuestion } from "./MoveDialog";
import { useNotify } from "./providers";
import { rereadQueries } from "./reread";
import { UNDO_OFFERED_MS } from "./use-calls";

/** A unit's state as the console reads it: "on scene". */
export const unitStateLabel = (state: UnitState) => state.replaceAll("_", " ");

/**
 * Each unit's move made here, offered for undo (docs/dashboard.md, "Dispatch reason, disposition,
 * undo"): the notice's Undo (key z) for UNDO_OFFERED_MS reverts exactly that move on the server
 * (lib/units/undo-state.ts), or the notice says why it will not. `undoing` is told the unit first,
 * so the console keeps the person's focus on its row (UnitMoves.tsx).
 */
function useUnitUndoOffer(undoing?: (unit: { id: string }) => void) {
  const client = useQueryClient();
  const notify = useNotify();
  const undo = useMutation({
    mutationFn: ({ unit, changeId }: { unit: { id: string; call_sign: string }; changeId: string }) => undoUnitState(unit.id, changeId),
    onMutate: ({ unit }) => undoing?.(unit),
    onError: (error, { unit }) => notify(`${unit.call_sign}'s move was not undone: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`),
    onSuccess: (unit: Unit) => notify(`Undone: ${unit.call_sign} is ${unitStateLabel(unit.state)} again.`),
    onSettled: () => rereadUnitViews(client),
  });
  return (text: string, unit: { id: string; call_sign: string }, changeId: string) =>
    notify(text, { ms: UNDO_OFFERED_MS, action: { label: "Undo", run: () => undo.mutate({ unit, changeId }) } });
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
 * Sends one unit to an incident. A unit that is not free is refused by the server (409
 * UNIT_UNAVAILABLE, with why); the dispatcher is asked, and a yes sends it with confirmation.
 */
export function useSendUnit() {
  const client = useQueryClient();
  const notify = useNotify();
  const offerUndo = useUnitUndoOffer();
  return useMutation({
    mutationFn: async ({ unitId, incidentId }: { unitId: string; incidentId: string }) => {
      try {
        return await assignUnits(incidentId, [unitId], false);
      } catch (error) {
        const refused = (error as ApiRequestError).code === "UNIT_UNAVAILABLE" ? ((error as ApiRequestError).details.units as Refused[]) : undefined;
        if (!refused) throw error;
        const why = refused.map((unit) => `${unit.call_sign} is ${unit.reason}`).join("; ");
        if (!window.confirm(`${why}. Send it to this incident anyway?`)) return undefined;
        return assignUnits(incidentId, [unitId], true);
      }
    },
    onError: (error) => notify(`The unit was not sent: ${error.message}`),
    onSuccess: (answer) => {
      const [sent] = answer?.assignments ?? [];
      if (sent) offerUndo(`${sent.call_sign} sent.`, { id: sent.unit_id, call_sign: sent.call_sign }, sent.state_change_id);
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

/** The units the server recommends for an incident, nearest first, each with why (GET /api/incidents/{id}/units). */
export function useRecommendation(incidentId: string | null) {
  return useQuery({
    queryKey: ["unit-recommendation", incidentId],
    queryFn: () => recommendUnits(incidentId!),
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
      if (moved.state === state && moved.state_change_id) offerUndo(`${moved.call_sign} is ${unitStateLabel(state)}.`, moved, moved.state_change_id);
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
