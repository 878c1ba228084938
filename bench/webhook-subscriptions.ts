/**
 * Outbound webhooks against intake (issue 24, acceptance 3), on one production server over a
 * scratch database of STORED seeded calls:
 *
 * 1. Webhook intake p50 with no subscription enabled and with one whose receiver answers after
 *    5 s, in alternating rounds of PER_ROUND signed calls (CONCURRENCY at a time), same run.
 * 2. A fast local receiver (the only subscription enabled): the time from each call's change
 *    (its `occurred_at`, the change's commit time as the database stamps it) to the event's
 *    arrival, for LATENCY_CALLS calls posted at RATE a second, p50/p95.
 *
 *   npm run build && npx tsx bench/webhook-subscriptions.ts   (server: BENCH_DATABASE_URL, else 127.0.0.1:5432)
 *   STORED=20000 ROUNDS=6 PER_ROUND=200 CONCURRENCY=16 LATENCY_CALLS=300 RATE=20 npx tsx bench/webhook-subscriptions.ts
 */
import { mkdtemp } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { mapWithConcurrency } from "../lib/simulation/pool";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { benchAuth, startProductionServer } from "./production-server";
import { postSigned } from "./post-call";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";
import { percentile } from "./stats";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const stored = Number(process.env.STORED ?? 20_000);
const rounds = Number(process.env.ROUNDS ?? 6);
const perRound = Number(process.env.PER_ROUND ?? 200);
const concurrency = Number(process.env.CONCURRENCY ?? 16);
const latencyCalls = Number(process.env.LATENCY_CALLS ?? 300);
const rate = Number(process.env.RATE ?? 20);
const SECRET = "bench-subscriptions-secret";

/** A receiver on 127.0.0.1 answering after `delayMs`; calls `onEvent` with each verified body and its arrival time. */
async function receiver(delayMs: number, onEvent: (body: string, headers: Record<string, string>, arrivedAt: number) => void) {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const arrivedAt = Date.now();
      onEvent(Buffer.concat(chunks).toString("utf8"), request.headers as Record<string, string>, arrivedAt);
      setTimeout(() => response.writeHead(204).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => server.close() };
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: Number(percentile(sorted, 0.5).toFixed(1)), p95: Number(percentile(sorted, 0.95).toFixed(1)) };
};

async function main(): Promise<void> {
  await withScratchClient(server, async (client, url) => {
    await seed(client, 1, stored);
    const app = await startProductionServer(3941, {
      DATABASE_URL: url,
      VOICEAGENT_WEBHOOK_SECRET: SECRET,
      TRUST_PROXY: "1",
      EXERCISE_TICK_MS: "0",
      SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: "true",
      BLOB_DIR: await mkdtemp(path.join(tmpdir(), "mayday-subscriptions-blobs-")),
    });
    const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${app.base}${route}`, {
        method,
        headers: { ...benchAuth, "content-type": "application/json", "x-forwarded-for": "198.51.100.250" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as T;
    };
    const arrivals = new Map<string, number>();
    let verifyFast: Webhook | undefined;
    let badSignatures = 0;
    let duplicates = 0;
    const fast = await receiver(0, (body, headers, arrivedAt) => {
      try {
        const event = verifyFast!.verify(body, headers) as { id: string; data: { call: { conversation_id: string } } };
        if (arrivals.has(event.id)) duplicates += 1;
        else arrivals.set(event.id, arrivedAt - Date.parse((JSON.parse(body) as { occurred_at: string }).occurred_at));
      } catch {
        badSignatures += 1;
      }
    });
    let slowEvents = 0;
    const slow = await receiver(5_000, () => (slowEvents += 1));
    try {
      const slowSubscription = await api<{ id: string }>("POST", "/api/subscriptions", {
        name: "slow", url: slow.url, event_types: ["call.created", "incident.created", "incident.updated"], enabled: false,
      });
      const setEnabled = (id: string, enabled: boolean) => api("PATCH", `/api/subscriptions/${id}`, { enabled });

      let sent = 0;
      const post = async (prefix: string, latencies: number[] | undefined, index: number) => {
        const event = specCallEvent(`${prefix}_${sent++}`, { location: "Mission District, San Francisco", eventTimestamp: Math.floor(Date.now() / 1000) });
        const payload = JSON.stringify(event);
        const begin = performance.now();
        await postSigned(app.base, SECRET, payload, index);
        latencies?.push(performance.now() - begin);
      };
      const round = (label: string, latencies?: number[]) =>
        mapWithConcurrency(Array.from({ length: perRound }, (_, index) => index), concurrency, (index) => post(label, latencies, index));

      // 1. Intake without and with the slow receiver, alternating.
      const intake = { none: [] as number[], slowReceiver: [] as number[] };
      await round("warm");
      for (let index = 0; index < rounds; index++) {
        const order: ("none" | "slowReceiver")[] = index % 2 === 0 ? ["none", "slowReceiver"] : ["slowReceiver", "none"];
        for (const label of order) {
          await setEnabled(slowSubscription.id, label === "slowReceiver");
          await round(`intake_${label}`, intake[label]);
        }
      }
      await setEnabled(slowSubscription.id, false);

      // 2. The fast receiver alone, calls at a steady rate: commit to arrival.
      // Created now, it starts at the head of the feed: only this phase's calls.
      const fastSubscription = await api<{ secret: string }>("POST", "/api/subscriptions", { name: "fast", url: fast.url, event_types: ["call.created"] });
      verifyFast = new Webhook(fastSubscription.secret);
      const started = Date.now();
      await mapWithConcurrency(Array.from({ length: latencyCalls }, (_, index) => index), concurrency, async (index) => {
        const due = started + (index * 1000) / rate;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        await post("latency", undefined, index);
      });
      const latest = Date.now() + 30_000;
      while (arrivals.size < latencyCalls && Date.now() < latest) await new Promise((resolve) => setTimeout(resolve, 100));

      const none = summary(intake.none);
      const slowed = summary(intake.slowReceiver);
      console.log(JSON.stringify({
        stored, rounds, perRound, concurrency, loadAverage: Number(loadavg()[0].toFixed(2)),
        intake: { noSubscription: none, slowReceiver5s: slowed, p50Ratio: Number((slowed.p50 / none.p50).toFixed(3)) },
        slowReceiverEventsReceived: slowEvents,
        fastReceiver: { calls: latencyCalls, rate, received: arrivals.size, duplicates, badSignatures, commitToArrivalMs: summary([...arrivals.values()]) },
      }, null, 2));
    } finally {
      app.stop();
      fast.close();
      slow.close();
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
