"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  acknowledgeAlerts, acknowledgeIncident, ApiRequestError, getAlerts, getMergeCandidates, getBoard, getCall, getHourly, getIncident, getIncidentMap, getIncidentQueue, listCalls,
  dismissDuplicate, mergeIncidents, splitIncident, undoIncidentStatus, updateCall, updateIncidentStatus,
  type CallDetail, type IncidentKind, type MoveDetails, type QueueView, type CallFilters, type CallUpdate, type CallRecord, type CallsPage, type IncidentDetail, type LiveIncident, type Viewport,
} from "./api";
import type { CallStatus } from "@/lib/vocabulary";
import { type Disposition, DISPOSITION_LABEL } from "@/lib/incidents/dispositions";
import { humanize, STATUS_LABEL } from "./call-status";
import { useMoveQuestion } from "./MoveDialog";
import { useExerciseVisibility } from "../training/exercise-visibility";
import { useNotify } from "./providers";
import { rereadQueries } from "./reread";

/**
 * The dashboard's server state. Nothing here polls on a timer: the change feed (use-change-feed)
 * marks these queries stale when calls change, and react-query reads them again.
 */

/** How often the polling fallback reads the change feed. */
export const POLL_MS = 5_000;
/** Incidents per keyset page of a queue section: the list reads the next page as its end comes into view. */
export const QUEUE_PAGE = 50;
/** Reminders fall due with time, not with a change: the alerts are also read on this timer. */
const ALERTS_EVERY_MS = 30_000;

export function useBoard() {
  const exercises = useExerciseVisibility();
  return useQuery({ queryKey: ["live", "board", exercises], queryFn: () => getBoard(exercises), placeholderData: keepPreviousData });
}

/**
 * One section of the incident queue, every open incident reachable: the server's keyset pages,
 * read one after another as the list scrolls (no cap); the change feed reads the loaded pages again.
 */
export function useQueueSection(view: QueueView, enabled: boolean) {
  const exercises = useExerciseVisibility();
  return useInfiniteQuery({
    queryKey: ["live", "incidents", view, exercises],
    queryFn: ({ pageParam }) => getIncidentQueue(view, pageParam, QUEUE_PAGE, exercises),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The alerts (GET /api/live/alerts): read again on every change and acknowledgement, and on a timer for reminders. */
export function useAlertList(exercise: string | undefined) {
  return useQuery({
    queryKey: ["alerts", exercise ?? null],
    queryFn: () => getAlerts(exercise),
    refetchInterval: ALERTS_EVERY_MS,
    placeholderData: keepPreviousData,
  });
}

/** Acknowledges an incident's alert for every dispatcher; the notice says when the server refused. */
export function useAcknowledge() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (id: string) => acknowledgeIncident(id),
    onError: (error, id) => notify(`Incident ${id} was not acknowledged: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`),
    onSettled: () => rereadQueries(client, { queryKey: ["alerts"] }),
  });
}

/** Acknowledges every alert of one kind at once, for every dispatcher; the notice says how many, or why not. */
export function useAcknowledgeAll(exercise: string | undefined) {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: (kind: IncidentKind) => acknowledgeAlerts(kind, exercise),
    onError: (error) => notify(`The alerts were not acknowledged: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`),
    onSettled: () => rereadQueries(client, { queryKey: ["alerts"] }),
  });
}

export function useIncidentMap(view: Viewport | null) {
  const exercises = useExerciseVisibility();
  return useQuery({
    queryKey: ["live", "incident-map", view, exercises],
    queryFn: () => getIncidentMap(view as Viewport, exercises),
    enabled: view !== null,
    placeholderData: keepPreviousData,
  });
}

/** One incident with all of its calls; the change feed marks it stale like the live picture. */
export function useIncidentDetail(id: string | null) {
  return useQuery({
    queryKey: ["incident", id],
    queryFn: () => getIncident(id as string),
    enabled: id !== null,
  });
}

/**
 * The open incidents of its kind that may merge into an incident, nearest first, under the words
 * typed (GET /api/incidents/{id}/merge-candidates): the server's, not the queue rows read so far;
 * read again with the incident's detail.
 */
export function useMergeCandidates(id: string, words: string, enabled: boolean) {
  return useQuery({
    queryKey: ["incident", id, "merge-candidates", words.trim()],
    queryFn: () => getMergeCandidates(id, words),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useCallDetail(id: string | null) {
  return useQuery({
    queryKey: ["call", id],
    queryFn: () => getCall(id as string),
    enabled: id !== null,
  });
}

export type SortOrder = "desc" | "asc";

/**
 * One page of the history. The API lists newest first; oldest first is the same listing read from
 * its far end, so it stays server-paginated.
 */
export function useHistoryPage(filters: CallFilters, page: number, pageSize: number, sort: SortOrder, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ["calls", "history", filters, page, pageSize, sort],
    queryFn: async (): Promise<CallsPage> => {
      if (sort === "desc") return listCalls(filters, pageSize, page * pageSize);
      const { total } = (await listCalls(filters, 1, 0)).pagination;
      const end = Math.max(0, total - page * pageSize);
      const offset = Math.max(0, end - pageSize);
      const result = await listCalls(filters, Math.max(1, end - offset), offset);
      const calls = end === 0 ? [] : [...result.calls].reverse();
      return { ...result, calls, pagination: { ...result.pagination, limit: pageSize, offset: page * pageSize, has_more: offset > 0 } };
    },
    placeholderData: keepPreviousData,
  });
}

/** The hourly chart's series, counted by the server under the history's filters. */
export function useHourly(filters: CallFilters, enabled: boolean) {
  const exercises = useExerciseVisibility();
  return useQuery({
    enabled,
    queryKey: ["calls", "hourly", filters, exercises],
    queryFn: () => getHourly(filters, exercises),
    placeholderData: keepPreviousData,
  });
}

/** Replaces one call's fields wherever a cached listing (history, an incident's calls) holds it. */
function patchListing(data: unknown, id: string, patch: Partial<CallRecord>): unknown {
  if (!data || typeof data !== "object") return data;
  const next = data as Record<string, unknown>;
  if (!Array.isArray(next.calls)) return data;
  return { ...next, calls: (next.calls as CallRecord[]).map((call) => (call.conversation_id === id ? { ...call, ...patch } : call)) };
}

const LISTINGS = [["calls"], ["incident"]];

/**
 * Moves a call to a new status at once on screen; when the server refuses, the screen goes back
 * and the dispatcher reads the server's reason.
 */
export function useStatusChange() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CallStatus }) => updateCall(id, { status }),
    onMutate: async ({ id, status }) => {
      for (const queryKey of LISTINGS) await client.cancelQueries({ queryKey });
      await client.cancelQueries({ queryKey: ["call", id] });
      const listings = LISTINGS.flatMap((queryKey) => client.getQueriesData({ queryKey }));
      const detail = client.getQueryData<CallDetail>(["call", id]);
      for (const queryKey of LISTINGS) client.setQueriesData({ queryKey }, (data: unknown) => patchListing(data, id, { status }));
      if (detail) client.setQueryData<CallDetail>(["call", id], { ...detail, status });
      return { listings, detail };
    },
    onError: (error, { id, status }, snapshot) => {
      for (const [key, data] of snapshot?.listings ?? []) client.setQueryData(key, data);
      if (snapshot?.detail) client.setQueryData(["call", id], snapshot.detail);
      const reason = error instanceof ApiRequestError ? error.message : "unexpected error";
      notify(`Call ${id} was not moved to ${STATUS_LABEL[status]}: ${reason}`);
    },
    onSuccess: (updated, { id }) => {
      for (const queryKey of LISTINGS) client.setQueriesData({ queryKey }, (data: unknown) => patchListing(data, id, updated));
    },
    onSettled: (_data, _error, { id }) => {
      void rereadQueries(client, { queryKey: ["live"] });
      void rereadQueries(client, { queryKey: ["calls"] });
      void rereadQueries(client, { queryKey: ["call", id] });
      void rereadQueries(client, { queryKey: ["incident"] });
    },
  });
}

/** Replaces one incident's fields wherever the queue, the map's markers or its detail hold it. */
function patchIncident(data: unknown, id: string, patch: Partial<LiveIncident>): unknown {
  if (!data || typeof data !== "object") return data;
  let next = data as Record<string, unknown>;
  if (next.id === id) next = { ...next, ...patch };
  if (Array.isArray(next.pages)) next = { ...next, pages: (next.pages as unknown[]).map((page) => patchIncident(page, id, patch)) };
  for (const field of ["incidents", "markers"]) {
    if (Array.isArray(next[field])) {
      next = { ...next, [field]: (next[field] as LiveIncident[]).map((row) => (row.id === id ? { ...row, ...patch } : row)) };
    }
  }
  return next;
}

const INCIDENT_VIEWS = [["live", "incidents"], ["live", "incident-map"], ["incident"]];

/** After any incident action: the live picture, the history and the details are read again. */
function refreshAfterIncidentAction(client: ReturnType<typeof useQueryClient>): void {
  void rereadQueries(client, { queryKey: ["live"] });
  void rereadQueries(client, { queryKey: ["calls"] });
  void rereadQueries(client, { queryKey: ["incident"] });
  void rereadQueries(client, { queryKey: ["call"] });
}

/** How long a move's notice offers its undo (the server allows it a while longer: lib/incidents/undo-status.ts). */
export const UNDO_OFFERED_MS = 10_000;

/**
 * Moves an incident (and its open calls, server side) to a new status at once on screen; when the
 * server refuses, the screen goes back and the dispatcher reads the server's reason. A close asks
 * for its disposition first; a dispatch the server refuses for want of a unit asks for the reason
 * (docs/dashboard.md, "Dispatch reason, disposition, undo"). A move made shows a notice with Undo
 * (key z) for UNDO_OFFERED_MS: the server reverts exactly that move, or says why it will not.
 */
export function useIncidentStatusChange() {
  const client = useQueryClient();
  const notify = useNotify();
  const ask = useMoveQuestion();
  const undo = useMutation({
    mutationFn: ({ id, changeId }: { id: string; changeId: string }) => undoIncidentStatus(id, changeId),
    onError: (error) => notify(`The move was not undone: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`),
    onSuccess: (updated: IncidentDetail) => {
      client.setQueryData(["incident", updated.id], updated);
      notify(`Undone: ${incidentWords(updated)} is ${STATUS_LABEL[updated.status]} again.`);
    },
    onSettled: () => refreshAfterIncidentAction(client),
  });
  const change = useMutation({
    mutationFn: ({ id, status, details }: { id: string; status: CallStatus; details: MoveDetails }) => updateIncidentStatus(id, status, details),
    onMutate: async ({ id, status }) => {
      for (const queryKey of INCIDENT_VIEWS) await client.cancelQueries({ queryKey });
      const views = INCIDENT_VIEWS.flatMap((queryKey) => client.getQueriesData({ queryKey }));
      for (const queryKey of INCIDENT_VIEWS) client.setQueriesData({ queryKey }, (data: unknown) => patchIncident(data, id, { status }));
      return { views };
    },
    onError: (error, { id, status }, snapshot) => {
      for (const [key, data] of snapshot?.views ?? []) client.setQueryData(key, data);
      // No unit on it: the move asks for its reason instead (move, below).
      if (error instanceof ApiRequestError && error.code === "DISPATCH_WITHOUT_UNIT") return;
      const reason = error instanceof ApiRequestError ? error.message : "unexpected error";
      notify(`Incident ${id} was not moved to ${STATUS_LABEL[status]}: ${reason}`);
    },
    onSuccess: (updated: IncidentDetail, { status }) => {
      client.setQueryData(["incident", updated.id], updated);
      const made = updated.status_change;
      if (!made || made.status !== status) return;
      const why = made.disposition ? ` (${DISPOSITION_LABEL[made.disposition as Disposition] ?? made.disposition})` : made.dispatch_reason ? ` (${made.dispatch_reason})` : "";
      notify(`${incidentWords(updated)} moved to ${STATUS_LABEL[status]}${why}.`, {
        ms: UNDO_OFFERED_MS,
        action: { label: "Undo", run: () => undo.mutate({ id: updated.id, changeId: made.id }) },
      });
    },
    onSettled: () => refreshAfterIncidentAction(client),
  });
  const move = async (id: string, status: CallStatus) => {
    let details: MoveDetails = {};
    if (status === "resolved" || status === "failed") {
      const answer = await ask({ kind: "disposition", title: `Close this incident as ${STATUS_LABEL[status]}` });
      if (!answer || !("disposition" in answer)) return;
      details = { disposition: answer.disposition };
    }
    change.mutate(
      { id, status, details },
      {
        onError: async (error) => {
          if (!(error instanceof ApiRequestError) || error.code !== "DISPATCH_WITHOUT_UNIT") return;
          const answer = await ask({ kind: "reason", title: `${STATUS_LABEL[status]} without a unit?` });
          if (answer && "reason" in answer) change.mutate({ id, status, details: { dispatch_reason: answer.reason } });
        },
      },
    );
  };
  return { move, isPending: change.isPending };
}

/** An incident as a notice names it: its type and address. */
const incidentWords = (incident: IncidentDetail) => `${humanize(incident.emergency_type)} at ${incident.location_matched ?? incident.location}`;

/**
 * A dispatcher's correction of a call's type, severity or location (the server geocodes a new
 * location and may move the call to another incident): the detail shows the server's answer, and
 * the live picture, listings and incidents are read again.
 */
export function useCallCorrection(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (correction: Omit<CallUpdate, "status">) => updateCall(id, correction),
    onSuccess: (updated) => client.setQueryData(["call", id], updated),
    onSettled: () => refreshAfterIncidentAction(client),
  });
}

/** Split (a call out into a new incident) and merge (another incident's calls into this one). */
export function useIncidentRegrouping() {
  const client = useQueryClient();
  const notify = useNotify();
  const failed = (what: string) => (error: Error) =>
    notify(`${what}: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`);
  const split = useMutation({
    mutationFn: ({ id, callId }: { id: string; callId: string }) => splitIncident(id, callId),
    onError: failed("The call was not moved out"),
    onSettled: () => refreshAfterIncidentAction(client),
  });
  const merge = useMutation({
    mutationFn: ({ id, otherId }: { id: string; otherId: string }) => mergeIncidents(id, otherId),
    onError: failed("The incidents were not merged"),
    onSettled: () => refreshAfterIncidentAction(client),
  });
  const dismiss = useMutation({
    mutationFn: ({ id, otherId }: { id: string; otherId: string }) => dismissDuplicate(id, otherId),
    onError: failed("The possible duplicate was not dismissed"),
    onSettled: () => refreshAfterIncidentAction(client),
  });
  return { split, merge, dismiss };
}
