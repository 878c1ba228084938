import type { InvalidateQueryFilters, QueryClient } from "@tanstack/react-query";

/**
 * Reads the matching views again from the server, after something changed there (a change on the
 * feed, a dispatcher's own write). invalidateQueries alone is not enough: a view whose first read
 * is still in flight has no data yet, and TanStack Query hands back that read instead of starting
 * another, though it may have been answered before the change. So such first reads are cancelled
 * and begun again; reads of views that already show data are restarted by invalidateQueries itself.
 */
export async function rereadQueries(client: QueryClient, filters: InvalidateQueryFilters): Promise<void> {
  await client.cancelQueries({
    ...filters,
    fetchStatus: "fetching",
    predicate: (query) => query.state.data === undefined && (filters.predicate?.(query) ?? true),
  });
  await client.invalidateQueries(filters);
}
