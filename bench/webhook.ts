/**
 * Webhook intake throughput: N distinct signed post-call events, C at a time, against a running
 * server; then checks that every one was stored exactly once (record, creation history, payload).
 *
 *   DATABASE_URL=... DATA_DIR=... VOICEAGENT_WEBHOOK_SECRET=... \
 *     npx tsx bench/webhook.ts [--url http://localhost:3000] [--requests 1000] [--concurrency 32] [--clients 8]
 *
 * Run it with the server's DATABASE_URL and DATA_DIR/BLOB_DIR (or BLOB_READ_WRITE_TOKEN): the
 * check reads the same database and object store. Figures go to docs/performance.md.
 *
 * The webhook keeps its limit of 1000 requests a minute per client, and this bench sends more
 * than that in seconds (64 warm-up events and the measured ones). A voice platform delivers from
 * several egress addresses, so the bench does too: start the server with `npm start` (our own
 * server, scripts/server.ts, which appends the socket peer to x-forwarded-for) and TRUST_PROXY=1,
 * and the bench acts as that one trusted proxy, naming one of --clients documentation addresses
 * (192.0.2.0/24, RFC 5737) per request. Each address stays well under the limit (133 requests at
 * the defaults). Against a server with TRUST_PROXY=0 every request is keyed by the bench's own
 * socket and the limit answers 429 past the 1000th: the bench then fails and says so.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { getConfig } from "../lib/config";
import { callPayloadKey } from "../lib/intake/receive";
import { mapWithConcurrency } from "../lib/simulation/pool";
import { getObjectStore } from "../lib/storage/get-object-store";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { signatureHeader } from "../lib/voice-platforms/elevenlabs/signature";
import { percentile } from "./stats";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://localhost:3000" },
    requests: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "32" },
    clients: { type: "string", default: "8" },
  },
});

const LOCATIONS = [
  "1200 Via de la Paz, Pacific Palisades",
  "Music Row, Nashville",
  "2000 Chestnut St, Marina District",
  "1500 Collins Ave, Miami Beach, FL",
  "400 Main St, Brentwood, TN",
  "behind the old barn past the creek",
];

interface Delivery {
  conversationId: string;
  key: string;
  body: string;
  /** The platform egress address this delivery comes from (see the header). */
  client: string;
}

function deliveries(prefix: string, count: number, clients: number): Delivery[] {
  const eventTimestamp = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, index) => {
    const conversationId = `${prefix}_${index}`;
    const event = specCallEvent(conversationId, { location: LOCATIONS[index % LOCATIONS.length], eventTimestamp });
    return {
      conversationId,
      key: callPayloadKey(conversationId, eventTimestamp),
      body: JSON.stringify(event),
      client: `192.0.2.${1 + (index % clients)}`,
    };
  });
}

async function send(url: URL, secret: string | undefined, delivery: Delivery): Promise<number> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": delivery.client };
  if (secret) headers["voiceagent-signature"] = signatureHeader(secret, delivery.body);
  const response = await fetch(url, { method: "POST", headers, body: delivery.body });
  await response.arrayBuffer();
  return response.status;
}

async function main(): Promise<void> {
  const config = getConfig();
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL must name the server's PostgreSQL database");
  const total = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const clients = Number(values.clients);
  if (!Number.isInteger(clients) || clients < 1 || clients > 254) throw new Error("--clients must be 1 to 254");
  const url = new URL("/api/voiceagent-webhook", values.url);
  const run = `bench_${Date.now().toString(36)}`;
  const secret = config.VOICEAGENT_WEBHOOK_SECRET;

  // Warm-up (not counted): compiles the route, opens connections, loads the place data.
  await mapWithConcurrency(deliveries(`warm_${run}`, 64, clients), concurrency, async (delivery) => void (await send(url, secret, delivery)));

  const batch = deliveries(run, total, clients);
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  await mapWithConcurrency(batch, concurrency, async (delivery) => {
    const begin = performance.now();
    const status = await send(url, secret, delivery);
    latencies.push(performance.now() - begin);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);

  const client = new pg.Client({ connectionString: config.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ records: string; distinct_ids: string; history: string }>(
    `SELECT count(*) AS records, count(DISTINCT c.conversation_id) AS distinct_ids,
            (SELECT count(*) FROM call_status_changes h JOIN calls c2 ON c2.id = h.call_id
              WHERE c2.conversation_id LIKE $1) AS history
       FROM calls c WHERE c.conversation_id LIKE $1`,
    [`${run}\\_%`],
  );
  await client.end();
  const store = getObjectStore();
  let payloadsMatching = 0;
  await mapWithConcurrency(batch, 16, async (delivery) => {
    if ((await store.get(delivery.key))?.toString("utf8") === delivery.body) payloadsMatching++;
  });

  const counted = rows[0];
  const report = {
    requests: total,
    concurrency,
    clients,
    seconds: Number(seconds.toFixed(2)),
    requestsPerSecond: Math.round(total / seconds),
    latencyMs: {
      p50: Math.round(percentile(latencies, 0.5)),
      p95: Math.round(percentile(latencies, 0.95)),
      p99: Math.round(percentile(latencies, 0.99)),
      max: Math.round(latencies.at(-1) ?? 0),
    },
    statuses: Object.fromEntries(statuses),
    stored: {
      records: Number(counted.records),
      distinctConversations: Number(counted.distinct_ids),
      creationHistoryRows: Number(counted.history),
      payloadsMatching,
      store: store.kind,
    },
  };
  console.log(JSON.stringify(report, null, 2));
  const intact = [report.stored.records, report.stored.distinctConversations, report.stored.creationHistoryRows, payloadsMatching]
    .every((count) => count === total);
  if (statuses.get(200) !== total || !intact) {
    console.error("Not every webhook was answered 200 and stored exactly once.");
    if (statuses.has(429)) {
      console.error("Some were rate-limited (1000 a minute per client): serve with `npm start` and TRUST_PROXY=1, and spread over enough --clients.");
    }
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
