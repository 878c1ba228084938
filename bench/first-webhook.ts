/**
 * The webhook right after a start, and the server's memory after a run of them (issue 17):
 * starts the production build (bench/production-server.ts) on a scratch database, times the first
 * signed webhook it receives, then sends --requests more (--concurrency at a time, from --clients
 * documentation addresses through TRUST_PROXY=1, as bench/webhook.ts does) and reads the server
 * process's resident set size from /proc/<pid>/status. Repeated for --starts fresh starts.
 * Acceptance: the first webhook answers in under 100 ms, and VmRSS after 1,000 webhooks is under 250 MB.
 *
 *   npm run build && flock /work/notes/bench.lock env TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test \
 *     BENCH_PORT=3107 npx tsx bench/first-webhook.ts [--starts 3] [--requests 1000] [--concurrency 8] [--cpu-prof dir] [--node-arg --max-old-space-size=192]
 *
 * --cpu-prof dir runs the server under `node --cpu-prof` and leaves its profile in
 * dir when the server stops; --node-arg (repeatable) passes other Node options (V8 heap sizes). Every location of the run needs the offline place data (none is a
 * scenario area), so the first webhook pays for loading it. Figures go to docs/performance.md.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { mapWithConcurrency } from "../lib/simulation/pool";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { signatureHeader } from "../lib/voice-platforms/elevenlabs/signature";
import { startProductionServer } from "./production-server";
import { withScratchDatabase } from "./scratch-database";
import { percentile } from "./stats";

const { values } = parseArgs({
  options: {
    starts: { type: "string", default: "3" },
    requests: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "8" },
    clients: { type: "string", default: "8" },
    "cpu-prof": { type: "string" },
    "node-arg": { type: "string", multiple: true, default: [] },
  },
});
const port = Number(process.env.BENCH_PORT ?? 3107);
const databaseServer = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/test";
const SECRET = "bench-first-webhook-secret";
const FIRST_LIMIT_MS = 100;
const RSS_LIMIT_MB = 250;

/** Towns, ZIPs and neighbourhoods from the offline lists, and one place nobody knows. */
const LOCATIONS = [
  "400 Main St, Brentwood, TN",
  "Houston TX",
  "123 Main St, Springfield, IL 62701",
  "Oakland, California",
  "90210",
  "Baton Rouge, LA",
  "Hollywood, CA",
  "behind the old barn past the creek",
];

let sequence = 0;

async function send(base: string, client: number): Promise<{ status: number; ms: number }> {
  const index = sequence++;
  const body = JSON.stringify(specCallEvent(`bench_first_${Date.now().toString(36)}_${index}`, {
    location: LOCATIONS[index % LOCATIONS.length],
    eventTimestamp: Math.floor(Date.now() / 1000),
  }));
  const started = performance.now();
  const response = await fetch(`${base}/api/voiceagent-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "voiceagent-signature": signatureHeader(SECRET, body),
      "x-forwarded-for": `192.0.2.${1 + client}`,
    },
    body,
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

function rssMB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]);
  return Math.round(kib / 102.4) / 10;
}

async function oneStart(databaseUrl: string, run: number) {
  const profileDir = values["cpu-prof"] ? path.resolve(values["cpu-prof"]) : undefined;
  const server = await startProductionServer(port, {
    DATABASE_URL: databaseUrl,
    VOICEAGENT_WEBHOOK_SECRET: SECRET,
    TRUST_PROXY: "1",
  }, [...values["node-arg"], ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=mayday-${run}.cpuprofile`] : [])]);
  try {
    const rssAtStart = rssMB(server.pid);
    const first = await send(server.base, 0);
    const rssAfterFirst = rssMB(server.pid);
    const clients = Number(values.clients);
    const latencies: number[] = [];
    const statuses = new Map<number, number>([[first.status, 1]]);
    const started = performance.now();
    await mapWithConcurrency(Array.from({ length: Number(values.requests) }, (_, index) => index), Number(values.concurrency), async (index) => {
      const { status, ms } = await send(server.base, index % clients);
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      firstMs: Math.round(first.ms),
      rssAtStartMB: rssAtStart,
      rssAfterFirstMB: rssAfterFirst,
      rssAfterRunMB: rssMB(server.pid),
      requestsPerSecond: Math.round(latencies.length / seconds),
      p50Ms: Math.round(percentile(latencies, 0.5)),
      p99Ms: Math.round(percentile(latencies, 0.99)),
      statuses: Object.fromEntries(statuses),
      loadAverage: Number(loadavg()[0].toFixed(1)),
    };
  } finally {
    server.stop();
    // The port and the profile are released when the process has gone.
    while (isAlive(server.pid)) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const runs = await withScratchDatabase(databaseServer, async (url) => {
    const results = [];
    for (let run = 1; run <= Number(values.starts); run++) results.push(await oneStart(url, run));
    return results;
  });
  console.log(JSON.stringify({ date: new Date().toISOString(), runs }, null, 2));
  const failed = runs.filter((run) => run.firstMs >= FIRST_LIMIT_MS || run.rssAfterRunMB >= RSS_LIMIT_MB || run.statuses[200] !== Number(values.requests) + 1);
  console.log(failed.length === 0
    ? `PASS: every first webhook under ${FIRST_LIMIT_MS} ms, RSS under ${RSS_LIMIT_MB} MB, every webhook answered 200`
    : `FAIL: ${failed.length} of ${runs.length} starts missed a target`);
  process.exitCode = failed.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
