"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useMemo } from "react";
import {
  ApiRequestError, getCall, listAllCalls, listCalls, listNewestCalls, MAX_PAGE, updateCallStatus,
  type CallDetail, type CallFilters, type CallRecord, type CallsPage,
} from "./api";
import type { CallStatus } from "@/lib/vocabulary";
import { STATUS_LABEL } from "./call-status";
import { useNotify } from "./providers";

/** How often the live views ask for news; react-query pauses it while the tab is hidden. */
export const POLL_MS = 5_000;
/** The older calls (beyond the newest page) change rarely; they are re-read less often. */
const TAIL_POLL_MS = 30_000;
/** The most calls the map and queue hold in memory. */
const LIVE_CAP = 20_000;

const LIVE_HEAD: QueryKey = ["calls", "live", "head"];

/**
 * Every stored call for the map and queue. The newest page arrives first so markers show at once;
 * the older ones follow once `olderPagesWanted` (the map has drawn), read below the newest page's
 * oldest timestamp so new arrivals never shift them between pages.
 */
export function useLiveCalls(olderPagesWanted: boolean) {
  const head = useQuery({
    queryKey: LIVE_HEAD,
    queryFn: listNewestCalls,
    refetchInterval: POLL_MS,
  });
  const boundary = head.data?.pagination.has_more ? head.data.calls.at(-1)?.timestamp : undefined;
  const tail = useQuery({
    queryKey: ["calls", "live", "tail", boundary],
    queryFn: async () => {
      const end = new Date((boundary as number) * 1000).toISOString();
      return (await listAllCalls({ end_date: end }, LIVE_CAP - MAX_PAGE)).calls;
    },
    enabled: boundary !== undefined && olderPagesWanted,
    refetchInterval: TAIL_POLL_MS,
    placeholderData: keepPreviousData,
  });

  const calls = useMemo(() => {
    const newest = head.data?.calls ?? [];
    if (boundary === undefined || !tail.data) return newest;
    const seen = new Set(newest.map((call) => call.conversation_id));
    return newest.concat(tail.data.filter((call) => !seen.has(call.conversation_id)));
  }, [head.data, tail.data, boundary]);

  return {
    calls,
    /** The newest page alone: every call that arrives shows up here first. */
    newest: head.data?.calls,
    total: head.data?.pagination.total ?? 0,
    isLoading: head.isPending,
    /** Every page has arrived once (it stays true while later polls run). */
    complete: head.data !== undefined && (boundary === undefined || tail.data !== undefined),
    error: head.error,
    updatedAt: head.dataUpdatedAt,
  };
}

export function useCallDetail(id: string | null) {
  return useQuery({
    queryKey: ["call", id],
    queryFn: () => getCall(id as string),
    enabled: id !== null,
    refetchInterval: POLL_MS,
  });
}

export type SortOrder = "desc" | "asc";

/**
 * One page of the history. The API lists newest first; oldest first is the same listing read from
 * its far end, so it stays server-paginated.
 */
export function useHistoryPage(filters: CallFilters, page: number, pageSize: number, sort: SortOrder) {
  return useQuery({
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
    refetchInterval: POLL_MS,
  });
}

/** Calls behind the hourly chart: the newest `cap` matching the filters. */
export const CHART_CAP = 5_000;

/** `enabled` waits for the live calls, so the map's first markers do not queue behind the chart. */
export function useChartCalls(filters: CallFilters, enabled: boolean) {
  return useQuery({
    queryKey: ["calls", "chart", filters],
    queryFn: () => listAllCalls(filters, CHART_CAP),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: TAIL_POLL_MS,
  });
}

/** Replaces one call's fields wherever a cached listing holds it. */
function patchListing(data: unknown, id: string, patch: Partial<CallRecord>): unknown {
  const patchAll = (calls: CallRecord[]) =>
    calls.map((call) => (call.conversation_id === id ? { ...call, ...patch } : call));
  if (Array.isArray(data)) return patchAll(data as CallRecord[]);
  if (data && typeof data === "object" && "calls" in data) {
    return { ...data, calls: patchAll((data as { calls: CallRecord[] }).calls) };
  }
  return data;
}

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
      await client.cancelQueries({ queryKey: ["calls"] });
      await client.cancelQueries({ queryKey: ["call", id] });
      const listings = client.getQueriesData({ queryKey: ["calls"] });
      const detail = client.getQueryData<CallDetail>(["call", id]);
      client.setQueriesData({ queryKey: ["calls"] }, (data: unknown) => patchListing(data, id, { status }));
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
      client.setQueriesData({ queryKey: ["calls"] }, (data: unknown) => patchListing(data, id, updated));
    },
    onSettled: (_data, _error, { id }) => {
      // The older calls keep the server's answer patched in above; re-reading them is not needed.
      void client.invalidateQueries({ queryKey: ["calls"], predicate: (query) => query.queryKey[2] !== "tail" });
      void client.invalidateQueries({ queryKey: ["call", id] });
    },
  });
}
