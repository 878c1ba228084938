"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ApiRequestError, getBoard, getCall, getHourly, getMapView, getQueue, listCalls, updateCallStatus,
  type CallDetail, type CallFilters, type CallRecord, type CallsPage, type Viewport,
} from "./api";
import type { CallStatus } from "@/lib/vocabulary";
import { STATUS_LABEL } from "./call-status";
import { useExerciseVisibility } from "./exercise-visibility";
import { useNotify } from "./providers";

/**
 * The dashboard's server state. Nothing here polls on a timer: the change feed (use-change-feed)
 * marks these queries stale when calls change, and react-query reads them again.
 */

/** How often the polling fallback reads the change feed. */
export const POLL_MS = 5_000;
/** Queue rows drawn at once; the counts above them cover every open call. */
export const QUEUE_WINDOW = 100;

export function useBoard() {
  const exercises = useExerciseVisibility();
  return useQuery({ queryKey: ["live", "board", exercises], queryFn: () => getBoard(exercises), placeholderData: keepPreviousData });
}

export function useQueueWindow() {
  const exercises = useExerciseVisibility();
  return useQuery({
    queryKey: ["live", "queue", QUEUE_WINDOW, exercises],
    queryFn: () => getQueue(QUEUE_WINDOW, exercises),
    placeholderData: keepPreviousData,
  });
}

export function useMapView(view: Viewport | null) {
  const exercises = useExerciseVisibility();
  return useQuery({
    queryKey: ["live", "map", view, exercises],
    queryFn: () => getMapView(view as Viewport, exercises),
    enabled: view !== null,
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

/** Replaces one call's fields wherever a cached listing (queue, map markers, history) holds it. */
function patchListing(data: unknown, id: string, patch: Partial<CallRecord>): unknown {
  const patchAll = (calls: CallRecord[]) =>
    calls.map((call) => (call.conversation_id === id ? { ...call, ...patch } : call));
  if (!data || typeof data !== "object") return data;
  let next = data as Record<string, unknown>;
  for (const field of ["calls", "markers"]) {
    if (Array.isArray(next[field])) next = { ...next, [field]: patchAll(next[field] as CallRecord[]) };
  }
  return next;
}

const LISTINGS = [["calls"], ["live", "queue"], ["live", "map"]];

/**
 * Moves a call to a new status at once on screen; when the server refuses, the screen goes back
 * and the dispatcher reads the server's reason.
 */
export function useStatusChange() {
  const client = useQueryClient();
  const notify = useNotify();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CallStatus }) => updateCallStatus(id, status),
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
      void client.invalidateQueries({ queryKey: ["live"] });
      void client.invalidateQueries({ queryKey: ["calls"] });
      void client.invalidateQueries({ queryKey: ["call", id] });
    },
  });
}
