/**
 * Webhook latency with incident grouping on and off, side by side in one run (issue 15): two
 * production servers on one scratch database of STORED seeded calls (100,000 by default), one with
 * INCIDENT_GROUPING_ENABLED=true and one with false, fed alternating rounds of signed webhooks
 * that all report one event (every caller of a big fire within about 100 m: grouping's worst case,
 * one incident that every call joins). Prints p50/p95 per server and their ratio, then waits for
 * the grouper and checks that the grouped server's calls ended in one incident.
 *
 *   npm run build && npx tsx bench/webhook-grouping.ts   (server: BENCH_DATABASE_URL, else 127.0.0.1:5432)
 *   STORED=100000 ROUNDS=6 PER_ROUND=300 CONCURRENCY=16 npx tsx bench/webhook-grouping.ts
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { mapWithConcurrency } from "../lib/simulation/pool";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { type ProductionServer, startProductionServer } from "./production-server";
import { postSigned } from "./post-call";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const stored = Number(process.env.STORED ?? 100_000);
const rounds = Number(process.env.ROUNDS ?? 6);
const perRound = Number(process.env.PER_ROUND ?? 300);
const concurrency = Number(process.env.CONCURRENCY ?? 16);
const SECRET = "bench-grouping-secret";
// Far from every seeded area (bench/seed-calls.ts), so only the bench's callers are near them: two
// fires in Colorado 55 km apart, one per server, as the ungrouped server's calls (each an incident
// of its own) would otherwise be the nearest incidents for the grouped server's callers.
const EVENTS = { on: { lat: 39.7392, lon: -104.9903 }, off: { lat: 40.2392, lon: -104.9903 } } as const;

let sent = 0;
function body(prefix: string, fire: { lat: number; lon: number }): string {
  const index = sent++;
  const event = specCallEvent(`${prefix}_${index}`, { location: "Burning warehouse, 5th and Main", eventTimestamp: Math.floor(Date.now() / 1000) });
  const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
  // Callers within about 100 m of the fire, each reporting where they stand.
  results.latitude = { value: fire.lat + ((index % 9) - 4) * 0.0002, rationale: "bench" };
  results.longitude = { value: fire.lon + ((index % 7) - 3) * 0.0002, rationale: "bench" };
  return JSON.stringify(event);
}

async function round(target: ProductionServer, label: "on" | "off", prefix: string, latencies: number[]): Promise<void> {
  const bodies = Array.from({ length: perRound }, (_, index) => ({ payload: body(prefix, EVENTS[label]), index }));
  await mapWithConcurrency(bodies, concurrency, async ({ payload, index }) => {
    const begin = performance.now();
    await postSigned(target.base, SECRET, payload, index);
    latencies.push(performance.now() - begin);
  });
}

async function main(): Promise<void> {
  await withScratchClient(server, async (client, url) => {
    await seed(client, 1, stored);
    const env = (grouping: boolean) => ({
      DATABASE_URL: url,
      VOICEAGENT_WEBHOOK_SECRET: SECRET,
      TRUST_PROXY: "1",
      EXERCISE_TICK_MS: "0",
      INCIDENT_GROUPING_ENABLED: String(grouping),
    });
    const blobs = await mkdtemp(path.join(tmpdir(), "mayday-grouping-blobs-"));
    const grouped = await startProductionServer(3931, { ...env(true), BLOB_DIR: blobs });
    const ungrouped = await startProductionServer(3932, { ...env(false), BLOB_DIR: blobs });
    try {
      const latencies = { on: [] as number[], off: [] as number[] };
      // Warm-up of both (not counted), then rounds in alternating order so drift hits both alike.
      await round(grouped, "on", "warm_on", []);
      await round(ungrouped, "off", "warm_off", []);
      for (let index = 0; index < rounds; index++) {
        const order: [ProductionServer, "on" | "off"][] = index % 2 === 0
          ? [[grouped, "on"], [ungrouped, "off"]]
          : [[ungrouped, "off"], [grouped, "on"]];
        for (const [target, label] of order) await round(target, label, `bench_${label}`, latencies[label]);
      }
      // The grouper works in the background: wait until nothing waits, then count incidents.
      for (let waited = 0; ; waited += 200) {
        const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM calls WHERE grouping_pending");
        if (Number(rows[0].n) === 0) break;
        if (waited > 60_000) throw new Error(`${rows[0].n} calls still waiting for the grouper after 60 s`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const { rows } = await client.query<{ label: string; calls: string; incidents: string }>(`
        SELECT split_part(conversation_id, '_', 2) AS label, count(*) AS calls, count(DISTINCT incident_id) AS incidents
        FROM calls WHERE conversation_id LIKE 'bench\\_%' GROUP BY 1 ORDER BY 1`);
      const summary = (values: number[]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return { requests: sorted.length, p50: Number(percentile(sorted, 0.5).toFixed(1)), p95: Number(percentile(sorted, 0.95).toFixed(1)) };
      };
      const on = summary(latencies.on);
      const off = summary(latencies.off);
      const [load] = (await import("node:os")).loadavg();
      console.log(JSON.stringify({
        stored, rounds, perRound, concurrency, loadAverage: Number(load.toFixed(2)),
        groupingOn: on, groupingOff: off,
        p50Ratio: Number((on.p50 / off.p50).toFixed(3)),
        stored_calls: rows.map((row) => ({ grouping: row.label, calls: Number(row.calls), incidents: Number(row.incidents) })),
      }, null, 2));
    } finally {
      grouped.stop();
      ungrouped.stop();
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
