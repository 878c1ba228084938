/**
 * Server time of POST /api/simulate with 1000 calls on PostgreSQL.
 *
 *   npx tsx bench/simulate.ts            (server: BENCH_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/test)
 *   RUNS=50 npx tsx bench/simulate.ts
 *
 * Creates a fresh database on that server, migrates it, runs what the route handler runs
 * in-process (parse the body, run the simulation, serialise the answer: the server's time without
 * HTTP and without the rate limiter, which would stop a benchmark at 100 requests a minute) and
 * drops the database again.
 */
import { API_KEY_ACTOR } from "../lib/access/actor";
import { getDb } from "../lib/db/client";
import { SCENARIO_IDS } from "../lib/scenarios/scenario-list";
import { parseSimulateRequest, runSimulation } from "../lib/simulation";
import { withScratchDatabase } from "./scratch-database";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const runs = Number(process.env.RUNS ?? 30);
const WARM_UP = 3;

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => percentile(sorted, q);
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, min ${sorted[0].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms (n=${samples.length})`;
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= "warn";
  for (const variable of ["AI_PROVIDER", "AI_BASE_URL", "AI_MODEL"]) delete process.env[variable];
  await withScratchDatabase(server, async () => {

    const simulate = async (scenario: string, numCalls: number, tableName: string) => {
      const started = performance.now();
      const body = JSON.stringify({ scenario, num_calls: numCalls, table_name: tableName });
      const result = await runSimulation(parseSimulateRequest(JSON.parse(body)), API_KEY_ACTOR);
      const answer = JSON.stringify(result);
      const elapsed = performance.now() - started;
      if (result.successful !== numCalls) throw new Error(`unexpected answer ${answer}`);
      return elapsed;
    };

    for (let i = 0; i < WARM_UP; i++) await simulate(SCENARIO_IDS[i % 4], 1000, "bench-warm-up");
    const single: number[] = [];
    for (let i = 0; i < runs; i++) single.push(await simulate(SCENARIO_IDS[i % 4], 1000, "bench"));
    console.log(`1000-call request, one at a time:        ${stats(single)}`);

    const small: number[] = [];
    for (let i = 0; i < runs; i++) small.push(await simulate(SCENARIO_IDS[i % 4], 100, "bench-small"));
    console.log(`100-call request, one at a time:         ${stats(small)}`);

    const parallel: number[] = [];
    for (let i = 0; i < Math.max(5, Math.floor(runs / 3)); i++) {
      const started = performance.now();
      await Promise.all(SCENARIO_IDS.map((scenario) => simulate(scenario, 1000, "bench-parallel")));
      parallel.push(performance.now() - started);
    }
    console.log(`4 parallel 1000-call requests (wall):    ${stats(parallel)}`);

    const rows = await (await getDb()).call.count();
    console.log(`rows in calls at the end: ${rows}`);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
