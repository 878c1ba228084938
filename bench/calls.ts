/**
 * GET /api/calls at 100,000 and 1,000,000 stored calls, in a database of its own (created here,
 * dropped at the end):
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/calls.ts
 *
 * (the URL names the server; TEST_DATABASE_URL is used when BENCH_DATABASE_URL is unset). Each
 * listing runs the whole read path (validation, page + count queries, mapping) with the cache
 * bypassed; EXPLAIN ANALYZE of the page and count queries is printed at 1,000,000 rows.
 */
import pg from "pg";
import { markOwnWrite } from "../lib/feed";
import { parseListQuery } from "../lib/calls/filters";
import { listCalls } from "../lib/board/list-calls";
import { countSql, pageSql } from "../lib/calls/query";
import { listQueryParameters } from "../lib/calls/schema";
import { parseQueryParameters } from "../lib/query-parameters";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";

const SCENARIOS: [string, string][] = [
  ["no filter (newest 50)", ""],
  ["two filters: severity + status", "severity=critical&status=active"],
  ["two filters: simulation + table_name", "simulation=false&table_name=calls"],
  ["emergency_type + start_date (last 24 h)", `emergency_type=gas_leak&start_date=${new Date(Date.now() - 86_400_000).toISOString()}`],
  ["location substring (an area, ~5%)", "location=malibu"],
  ["location substring (rare address)", "location=2999%20ocean"],
  ["deep offset 10,000", "offset=10000"],
  ["deep offset 90,000", "offset=90000"],
  ["deep offset 90,000 + status", "status=resolved&offset=90000"],
];

async function measure(query: string): Promise<{ p50: number; p99: number; runs: number; total: number }> {
  const parsed = parseQueryParameters(new URLSearchParams(query), listQueryParameters);
  const times: number[] = [];
  let total = 0;
  const deadline = performance.now() + 8_000;
  for (let run = 0; run < 200 && (run < 20 || performance.now() < deadline); run++) {
    markOwnWrite(); // every run reads the database
    const started = performance.now();
    total = (await listCalls(parsed)).pagination.total;
    if (run >= 3) times.push(performance.now() - started); // the first runs warm the pool and caches
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), runs: times.length, total };
}

async function explain(client: pg.Client, label: string, query: string): Promise<void> {
  const { filters, limit, offset } = parseListQuery(new URLSearchParams(query));
  for (const [kind, sql] of [["page", pageSql(filters, limit, offset)], ["count", countSql(filters)]] as const) {
    const { rows } = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql.text}`, sql.values);
    console.log(`\n-- ${label}: ${kind}\n${rows.map((row) => `   ${row["QUERY PLAN"]}`).join("\n")}`);
  }
}

async function main(): Promise<void> {
  delete process.env.REDIS_URL;
  await withScratchClient(server, async (client) => {
    const results = new Map<string, Record<number, Awaited<ReturnType<typeof measure>>>>();
    for (const [first, last] of [[1, 100_000], [100_001, 1_000_000]]) {
      await seed(client, first, last);
      for (const [label, query] of SCENARIOS) {
        const result = await measure(query);
        results.set(label, { ...results.get(label), [last]: result });
        console.log(`${last} rows | ${label}: p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, total ${result.total}`);
      }
    }

    console.log("\n| Listing | total at 100k / 1M | p50 100k | p99 100k | p50 1M | p99 1M | p50 1M / 100k |");
    console.log("|---|---|---|---|---|---|---|");
    for (const [label, byRows] of results) {
      const [small, large] = [byRows[100_000], byRows[1_000_000]];
      console.log(
        `| ${label} | ${small.total} / ${large.total} | ${small.p50.toFixed(2)} ms | ${small.p99.toFixed(2)} ms | ` +
          `${large.p50.toFixed(2)} ms | ${large.p99.toFixed(2)} ms | ${(large.p50 / small.p50).toFixed(2)}x |`,
      );
    }

    for (const [label, query] of SCENARIOS) await explain(client, label, query);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
