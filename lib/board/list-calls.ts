import { type CallFilters, listQueryFrom, type ListQueryValues } from "../calls/filters";
import { countCalls, findCallsPage } from "../calls/query";
import { toCallRecord } from "../calls/to-call-record";
import type { CallList } from "../calls/schema";
import { withDatabase } from "../db/with-database";
import { cacheKey, CACHE_TTL_SECONDS, openCallsCache, type HeadCache } from "./listing-cache";

const isUnfiltered = (filters: CallFilters) => Object.values(filters).every((value) => value === undefined);

async function readThrough<T>(
  cache: HeadCache,
  key: string,
  ttlSeconds: number,
  weigh: (value: T) => number,
  compute: () => Promise<T>,
): Promise<T> {
  const cached = await cache.get<T>(key);
  if (cached !== undefined) return cached;
  const value = await compute();
  await cache.set(key, value, ttlSeconds, weigh(value));
  return value;
}

/** GET /api/calls: one page of matching records, newest first, with the matching total. */
export async function listCalls(values: ListQueryValues): Promise<CallList> {
  const { filters, limit, offset, echo } = listQueryFrom(values);
  const cache = await openCallsCache();
  const [calls, total] = await Promise.all([
    readThrough(
      cache,
      cacheKey("page", { filters, limit, offset }),
      isUnfiltered(filters) ? CACHE_TTL_SECONDS.recent : CACHE_TTL_SECONDS.filtered,
      (records) => Math.max(records.length, 1),
      async () => (await withDatabase((db) => findCallsPage(db, filters, limit, offset))).map(toCallRecord),
    ),
    readThrough(cache, cacheKey("count", filters), CACHE_TTL_SECONDS.count, () => 1, () =>
      withDatabase((db) => countCalls(db, filters)),
    ),
  ]);
  return {
    calls,
    pagination: { limit, offset, total, has_more: offset + calls.length < total },
    filters: echo,
  };
}
