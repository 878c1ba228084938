/**
 * Issue 14, the service riding out its dependencies, measured against the production build
 * (`npm run build` first; bench/production-server.ts) with a PostgreSQL cluster and a redis-server
 * of the bench's own (never the machine's shared ones, which other work uses):
 *
 *   npx tsx bench/resilience.ts [--part all|postgres|redis] [--port 3195] [--webhooks 10000]
 *     [--rate 100] [--outage-s 60] [--phase-s 20] [--platform elevenlabs|vapi]
 *
 * postgres: --webhooks signed deliveries paced at --rate a second (16 in flight at most), the
 *   cluster stopped (`pg_ctl stop -m fast`) for --outage-s in the middle. No delivery is retried:
 *   each must be answered 200 the first time. Then: every conversation stored exactly once, every
 *   payload byte-identical, and the time from the cluster's restart to an empty backlog.
 *   --platform vapi posts Vapi end-of-call reports (HMAC credential) to /api/voiceagent-webhook/vapi
 *   instead (issue 26: `--part postgres --platform vapi --webhooks 1000 --rate 20 --outage-s 60`).
 * redis: webhooks (16 in flight) and listings (4 in flight) for --phase-s each with Redis up,
 *   stopped, up, paused (SIGSTOP), up: p50, max and errors of each, each outage's p50 over the mean
 *   of the "up" phases around it; and after each restart or resume, the time until a rate-limit
 *   check is counted in Redis again.
 *
 * The webhook limit is 1000 a minute per client: as in bench/webhook.ts the server runs with
 * TRUST_PROXY=1 and the bench is that proxy, spreading deliveries over documentation addresses.
 * Figures go to docs/performance.md ("Dependencies down").
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createClient } from "redis";
import { callPayloadKey } from "../lib/intake/receive";
import { mapWithConcurrency } from "../lib/simulation/pool";
import { LocalObjectStore } from "../lib/storage/local";
import { platformAdapters } from "../lib/voice-platforms/adapters";
import { vapiHmacHeaders } from "../lib/voice-platforms/vapi/signature";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { vapiEndOfCallReport } from "../lib/voice-platforms/vapi/sample-events";
import { signatureHeader } from "../lib/voice-platforms/elevenlabs/signature";
import { DisposableRedis } from "../tests/support/redis";
import { PrivatePostgres } from "./private-postgres";
import { benchAuth, type ProductionServer as Server, startProductionServer } from "./production-server";
import { percentile } from "./stats";

const { values } = parseArgs({
  options: {
    part: { type: "string", default: "all" },
    port: { type: "string", default: "3195" },
    "pg-port": { type: "string", default: "55439" },
    webhooks: { type: "string", default: "10000" },
    rate: { type: "string", default: "100" },
    "outage-s": { type: "string", default: "60" },
    "phase-s": { type: "string", default: "20" },
    platform: { type: "string", default: "elevenlabs" },
  },
});

const SECRET = "wsec_bench_resilience";
const VAPI_SECRET = "vapi_bench_resilience";
const VAPI = values.platform === "vapi";
const WEBHOOK_CLIENTS = 32;
const LISTING_CLIENTS = 16;
const REQUEST_TIMEOUT_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number) => Math.round(value);

interface Sample {
  status: number;
  ms: number;
}

function summary(samples: Sample[]) {
  const latencies = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const sample of samples) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
  return {
    requests: samples.length,
    p50: round(percentile(latencies, 0.5)),
    p95: round(percentile(latencies, 0.95)),
    max: round(latencies.at(-1) ?? 0),
    over1s: latencies.filter((ms) => ms > 1_000).length,
    statuses,
  };
}

async function timed(request: () => Promise<Response>): Promise<Sample> {
  const started = performance.now();
  try {
    const response = await request();
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    // A timeout or a refused connection: counted as an error, with the time it took.
    return { status: 0, ms: performance.now() - started };
  }
}

interface Delivery {
  conversationId: string;
  key: string;
  body: string;
  client: string;
}

function deliveries(run: string, count: number): Delivery[] {
  const eventTimestamp = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, index) => {
    if (VAPI) {
      const report = vapiEndOfCallReport(`${run}_${index}`, {
        endedAt: Date.now(),
        location: index % 2 ? "Music Row, Nashville" : "2000 Chestnut St, Marina District",
      });
      const body = JSON.stringify(report);
      const { payloadKey } = platformAdapters.vapi.read(report, Buffer.from(body));
      return { conversationId: `vapi:${run}_${index}`, key: payloadKey, body, client: `192.0.2.${1 + (index % WEBHOOK_CLIENTS)}` };
    }
    const conversationId = `${run}_${index}`;
    const event = specCallEvent(conversationId, { eventTimestamp, location: index % 2 ? "Music Row, Nashville" : "2000 Chestnut St, Marina District" });
    return {
      conversationId,
      key: callPayloadKey(conversationId, eventTimestamp),
      body: JSON.stringify(event),
      client: `192.0.2.${1 + (index % WEBHOOK_CLIENTS)}`,
    };
  });
}

function sendWebhook(server: Server, delivery: Delivery): Promise<Sample> {
  return timed(() =>
    fetch(`${server.base}/api/voiceagent-webhook${VAPI ? "/vapi" : ""}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": delivery.client,
        // Signed as each platform signs, at the moment it is sent.
        ...(VAPI ? vapiHmacHeaders(VAPI_SECRET, delivery.body) : { "elevenlabs-signature": signatureHeader(SECRET, delivery.body) }),
      },
      body: delivery.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }),
  );
}

function getListing(server: Server, client: string): Promise<Sample> {
  return timed(() =>
    fetch(`${server.base}/api/calls?limit=50`, { headers: { "x-forwarded-for": client, ...benchAuth }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  );
}

async function backlog(server: Server): Promise<number | undefined> {
  try {
    const body = (await (await fetch(`${server.base}/api/health`, { headers: benchAuth, signal: AbortSignal.timeout(5_000) })).json()) as {
      checks?: { backlog?: { pending?: number } };
    };
    return body.checks?.backlog?.pending;
  } catch {
    return undefined;
  }
}

/** Deliveries started at `rate` a second, at most `inFlight` at once; none retried. */
async function paced(server: Server, batch: Delivery[], rate: number, inFlight: number): Promise<Sample[]> {
  const started = performance.now();
  return mapWithConcurrency(batch, inFlight, async (delivery, index) => {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    return sendWebhook(server, delivery);
  });
}

async function postgresPart(server: Server, postgres: PrivatePostgres, blobDir: string) {
  const total = Number(values.webhooks);
  const rate = Number(values.rate);
  const outageMs = Number(values["outage-s"]) * 1000;
  const sendingMs = (total / rate) * 1000;
  const outageStartMs = Math.max(0, (sendingMs - outageMs) / 2);
  const run = `resil_${Date.now().toString(36)}`;
  const batch = deliveries(run, total);

  let peakBacklog = 0;
  let backAt = 0;
  let drainedAfterMs: number | undefined;
  let stopped = false;
  const watcher = (async () => {
    while (drainedAfterMs === undefined) {
      const pending = await backlog(server);
      if (pending !== undefined) {
        peakBacklog = Math.max(peakBacklog, pending);
        if (backAt > 0 && pending === 0) drainedAfterMs = performance.now() - backAt;
      }
      await sleep(backAt > 0 ? 250 : 1_000);
    }
  })();
  const outage = (async () => {
    await sleep(outageStartMs);
    postgres.stop();
    stopped = true;
    console.error(`postgres stopped at ${round(outageStartMs / 1000)} s`);
    await sleep(outageMs);
    postgres.start();
    backAt = performance.now();
    console.error("postgres started again");
  })();
  const samples = await paced(server, batch, rate, 16);
  await outage;
  // Give the backlog up to two minutes to drain (the acceptance is 30 s).
  await Promise.race([watcher, sleep(120_000)]);
  if (drainedAfterMs === undefined) drainedAfterMs = Number.NaN;

  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  const { rows } = await client.query<{ records: string; distinct_ids: string; history: string }>(
    `SELECT count(*) AS records, count(DISTINCT c.conversation_id) AS distinct_ids,
            (SELECT count(*) FROM call_status_changes h JOIN calls c2 ON c2.id = h.call_id
              WHERE c2.conversation_id LIKE $1 AND h.from_status IS NULL) AS history
       FROM calls c WHERE c.conversation_id LIKE $1`,
    [`${VAPI ? "vapi:" : ""}${run}\\_%`],
  );
  await client.end();
  const store = new LocalObjectStore(blobDir);
  let payloadsMatching = 0;
  await mapWithConcurrency(batch, 16, async (delivery) => {
    if ((await store.get(delivery.key))?.toString("utf8") === delivery.body) payloadsMatching++;
  });
  return {
    platform: VAPI ? "vapi" : "elevenlabs",
    webhooks: total,
    ratePerSecond: rate,
    outageSeconds: outageMs / 1000,
    stopped,
    answered: summary(samples),
    firstAttempt200: samples.filter((sample) => sample.status === 200).length,
    peakBacklog,
    drainedSecondsAfterRestart: Number((drainedAfterMs / 1000).toFixed(1)),
    stored: {
      records: Number(rows[0].records),
      distinctConversations: Number(rows[0].distinct_ids),
      creationRows: Number(rows[0].history),
      payloadsMatching,
    },
  };
}

/** Webhooks (16 in flight) and listings (4 in flight) for `ms`. */
async function load(server: Server, ms: number) {
  const deadline = performance.now() + ms;
  const run = `resil_load_${Date.now().toString(36)}`;
  let next = 0;
  const webhooks: Sample[] = [];
  const listings: Sample[] = [];
  const webhookWorker = async () => {
    while (performance.now() < deadline) {
      const [delivery] = deliveries(`${run}_${next++}`, 1);
      delivery.client = `192.0.2.${1 + (next % WEBHOOK_CLIENTS)}`;
      webhooks.push(await sendWebhook(server, delivery));
    }
  };
  let listingCount = 0;
  const listingWorker = async () => {
    while (performance.now() < deadline) {
      listings.push(await getListing(server, `198.51.100.${1 + (listingCount++ % LISTING_CLIENTS)}`));
    }
  };
  await Promise.all([...Array.from({ length: 16 }, webhookWorker), ...Array.from({ length: 4 }, listingWorker)]);
  return { webhook: summary(webhooks), listing: summary(listings) };
}

/** Time until a listing's rate-limit check is counted in Redis again (the count is shared). */
async function sharedAgainMs(server: Server, redisUrl: string, since: number): Promise<number> {
  const admin = createClient({ url: redisUrl });
  admin.on("error", () => undefined);
  await admin.connect();
  const client = "198.51.100.250";
  try {
    for (;;) {
      const keys = async () => {
        const found: string[] = [];
        for await (const batch of admin.scanIterator({ MATCH: `mayday:ratelimit:calls:${client}:*` })) found.push(...batch);
        const counts = await Promise.all(found.map((key) => admin.get(key)));
        return counts.reduce((sum, count) => sum + Number(count ?? 0), 0);
      };
      const before = await keys();
      await getListing(server, client);
      if ((await keys()) > before) return performance.now() - since;
      if (performance.now() - since > 60_000) return Number.NaN;
      await sleep(100);
    }
  } finally {
    await admin.close();
  }
}

/** p50 of a phase over the mean p50 of the "up" phases just before and after it. */
function ratio(phase: { p50: number }, before: { p50: number }, after: { p50: number }): number {
  return Number((phase.p50 / ((before.p50 + after.p50) / 2)).toFixed(2));
}

async function redisPart(server: Server, redis: DisposableRedis) {
  const phaseMs = Number(values["phase-s"]) * 1000;
  // Warm-up, not counted: routes compiled into memory, connections open.
  await load(server, 3_000);
  // Other work shares the machine and its load drifts: each outage phase sits between two "up"
  // phases and is compared with their mean.
  const up1 = await load(server, phaseMs);

  await redis.stop();
  const stopped = await load(server, phaseMs);
  await redis.start();
  const afterRestart = await sharedAgainMs(server, redis.url, performance.now());
  const up2 = await load(server, phaseMs);

  redis.pause();
  const resume = sleep(phaseMs).then(() => {
    redis.resume();
    return performance.now();
  });
  const paused = await load(server, phaseMs);
  const resumedAt = await resume;
  const afterResume = await sharedAgainMs(server, redis.url, resumedAt);
  const up3 = await load(server, phaseMs);
  return {
    phaseSeconds: phaseMs / 1000,
    phases: { up1, stopped, up2, paused, up3 },
    p50OverUp: {
      stopped: { webhook: ratio(stopped.webhook, up1.webhook, up2.webhook), listing: ratio(stopped.listing, up1.listing, up2.listing) },
      paused: { webhook: ratio(paused.webhook, up2.webhook, up3.webhook), listing: ratio(paused.listing, up2.listing, up3.listing) },
    },
    sharedAgainSeconds: {
      afterRestart: Number((afterRestart / 1000).toFixed(2)),
      afterResume: Number((afterResume / 1000).toFixed(2)),
    },
  };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), "mayday-bench-resilience-"));
  // The cluster runs as the postgres OS user, which must reach its directory inside this one.
  await chmod(work, 0o755);
  const postgres = new PrivatePostgres(path.join(work, "pg"), Number(values["pg-port"]));
  const redis = await DisposableRedis.start();
  const dataDir = path.join(work, "data");
  let server: Server | undefined;
  const report: Record<string, unknown> = {};
  try {
    postgres.start();
    const admin = new pg.Client({ connectionString: postgres.url.replace(/\/bench$/, "/postgres") });
    await admin.connect();
    await admin.query("CREATE DATABASE bench");
    await admin.end();
    server = await startProductionServer(Number(values.port), {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      TRUST_PROXY: "1",
      VOICEAGENT_WEBHOOK_SECRET: SECRET,
      VAPI_WEBHOOK_SECRET: VAPI_SECRET,
      // The backlog is read from health: a fresh count every second at most.
      HEALTH_CHECK_INTERVAL_MS: "1000",
    });
    console.error("server up");
    if (values.part === "all" || values.part === "redis") report.redis = await redisPart(server, redis);
    if (values.part === "all" || values.part === "postgres") report.postgres = await postgresPart(server, postgres, path.join(dataDir, "blobs"));
    // Other work shares the machine: its load average says how much the figures suffered.
    report.loadAverage = loadavg().map((value) => Number(value.toFixed(1)));
    console.log(JSON.stringify(report, null, 2));
  } finally {
    server?.stop();
    await sleep(2_000);
    if (postgres.isRunning()) postgres.stop();
    await redis.stop();
    if (!process.env.KEEP_BENCH_DIR) await rm(work, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
