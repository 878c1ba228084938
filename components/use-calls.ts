"use client";

import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  acknowledgeIncident, ApiRequestError, getAlerts, getBoard, getCall, getHourly, getIncident, getIncidentMap, getIncidentQueue, listCalls,
  dismissDuplicate, mergeIncidents, splitIncident, updateCall, updateIncidentStatus,
  type CallDetail, type QueueView, type CallFilters, type CallUpdate, type CallRecord, type CallsPage, type IncidentDetail, type LiveIncident, type Viewport,
} from "./api";
import type { CallStatus } from "@/lib/vocabulary";
import { STATUS_LABEL } from "./call-status";
import { useExerciseVisibility } from "./exercise-visibility";
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

/**
 * Moves an incident (and its open calls, server side) to a new status at once on screen; when the
 * server refuses, the screen goes back and the dispatcher reads the server's reason.
 */
export function useIncidentStatusChange() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CallStatus }) => updateIncidentStatus(id, status),
    onMutate: async ({ id, status }) => {
      for (const queryKey of INCIDENT_VIEWS) await client.cancelQueries({ queryKey });
      const views = INCIDENT_VIEWS.flatMap((queryKey) => client.getQueriesData({ queryKey }));
      for (const queryKey of INCIDENT_VIEWS) client.setQueriesData({ queryKey }, (data: unknown) => patchIncident(data, id, { status }));
      return { views };
    },
    onError: (error, { id, status }, snapshot) => {
      for (const [key, data] of snapshot?.views ?? []) client.setQueryData(key, data);
      const reason = error instanceof ApiRequestError ? error.message : "unexpected error";
      notify(`Incident ${id} was not moved to ${STATUS_LABEL[status]}: ${reason}`);
    },
    onSuccess: (updated: IncidentDetail) => client.setQueryData(["incident", updated.id], updated),
    onSettled: () => refreshAfterIncidentAction(client),
  });
}

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
