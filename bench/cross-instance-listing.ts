/**
 * How soon a call one instance takes is in another instance's listing: two production servers
 * (`npm run build` first) over one database with 10,000 stored calls, without Redis, then with a
 * Redis that does not answer (as when it is stopped). Each round primes instance A's cached
 * listing (newest page and total), posts a signed webhook call to instance B, and reads A's
 * listing every 10 ms until its newest call is B's call and its total one more.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/cross-instance-listing.ts
 */
import { loadavg } from "node:os";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { benchAuth, startProductionServer } from "./production-server";
import { postSigned } from "./post-call";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const ROUNDS = 20;
const SECRET = "bench-cross-instance-secret";
const GIVE_UP_MS = 30_000;

interface Listing {
  newest: string;
  total: number;
}

let reads = 0;

/** From 200 documentation addresses (TRUST_PROXY=1): the per-client limit stays on but is not what is measured. */
async function listing(base: string): Promise<Listing> {
  const client = `198.51.100.${(reads++ % 200) + 1}`;
  const response = await fetch(`${base}/api/calls?limit=1`, { headers: { ...benchAuth, "x-forwarded-for": client } });
  if (!response.ok) throw new Error(`listing answered ${response.status}`);
  const body = (await response.json()) as { calls: { conversation_id: string }[]; pagination: { total: number } };
  return { newest: body.calls[0]?.conversation_id ?? "", total: body.pagination.total };
}

let sent = 0;

async function round(a: string, b: string, index: number, label: string): Promise<number> {
  const before = await listing(a);
  await listing(a); // now served from A's cache
  const id = `bench-cross-${label}-${index}-${Date.now()}`;
  // Newer than every stored call and than every earlier round's (the seed's newest is now), so it heads the listing.
  const eventTimestamp = Math.floor(Date.now() / 1000) + 1 + sent++;
  const body = JSON.stringify(specCallEvent(id, { location: "Mission District, San Francisco", eventTimestamp }));
  await postSigned(b, SECRET, body);
  const answered = performance.now();
  for (;;) {
    const now = await listing(a);
    if (now.newest === id && now.total === before.total + 1) return performance.now() - answered;
    if (performance.now() - answered > GIVE_UP_MS) return Infinity;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function main(): Promise<void> {
  await withScratchClient(server, async (client, url) => {
    await seed(client, 1, 10_000);
    await client.query("VACUUM ANALYZE");
    const load = loadavg()[0];
    for (const [label, redisUrl] of [["no Redis", ""], ["Redis not answering", "redis://127.0.0.1:1"]] as const) {
      const env = { DATABASE_URL: url, REDIS_URL: redisUrl, VOICEAGENT_WEBHOOK_SECRET: SECRET, TRUST_PROXY: "1" };
      const a = await startProductionServer(3940, env);
      const b = await startProductionServer(3941, env);
      try {
        const times: number[] = [];
        for (let index = 0; index < ROUNDS; index++) times.push(await round(a.base, b.base, index, label.replace(/\W+/g, "-")));
        const within = times.filter((ms) => ms <= 1_000).length;
        times.sort((x, y) => x - y);
        console.log(
          `${label}: ${within} of ${ROUNDS} within 1 s; p50 ${percentile(times, 0.5).toFixed(1)} ms, ` +
            `p95 ${percentile(times, 0.95).toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (load average ${load.toFixed(2)} before)`,
        );
      } finally {
        a.stop();
        b.stop();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
