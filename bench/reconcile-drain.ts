/**
 * How fast the reconciler records a backlog (issue 14: drained within 30 s of the database coming
 * back), in process, without the outage: PENDING payloads archived in a local object store with
 * their markers, as webhooks leave them while PostgreSQL is down, then one reconcilePending pass on
 * a scratch database, timed, then until the grouper has placed the calls in their incidents.
 *
 *   npx tsx bench/reconcile-drain.ts                  (server: BENCH_DATABASE_URL, else 127.0.0.1:5432)
 *   PENDING=6000 npx tsx bench/reconcile-drain.ts
 *   node --cpu-prof --import tsx bench/reconcile-drain.ts   (where the time goes)
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { groupNow } from "../lib/incidents/grouper";
import { callPayloadKey } from "../lib/intake/receive";
import { markPending } from "../lib/intake/pending";
import { reconcilePending } from "../lib/reconcile/reconciler";
import type { ObjectStore } from "../lib/storage/get-object-store";
import { LocalObjectStore } from "../lib/storage/local";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { withScratchClient } from "./scratch-database";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const pending = Number(process.env.PENDING ?? 3000);

async function main(): Promise<void> {
  const store: ObjectStore = new LocalObjectStore(await mkdtemp(path.join(tmpdir(), "mayday-drain-")));
  const eventTimestamp = Math.floor(Date.now() / 1000);
  // The payloads the resilience bench sends: half geocoded from their text, none with coordinates.
  for (let index = 0; index < pending; index++) {
    const conversationId = `drain_${index}`;
    const event = specCallEvent(conversationId, { eventTimestamp, location: index % 2 ? "Music Row, Nashville" : "2000 Chestnut St, Marina District" });
    const key = callPayloadKey(conversationId, eventTimestamp);
    await store.put(key, JSON.stringify(event), "application/json");
    await markPending(key, store);
  }
  await withScratchClient(server, async (client) => {
    const started = performance.now();
    const result = await reconcilePending({ store });
    const seconds = (performance.now() - started) / 1000;
    // A batch's calls are grouped by the background grouper: until it is done, they are not in their incidents.
    await groupNow();
    const groupedSeconds = (performance.now() - started) / 1000;
    const { rows } = await client.query<{ calls: string }>("SELECT count(*) AS calls FROM calls WHERE conversation_id LIKE 'drain\\_%'");
    console.log(JSON.stringify({
      pending, recorded: result.recorded, remaining: result.remaining, calls: Number(rows[0].calls),
      seconds: Number(seconds.toFixed(2)), perSecond: Math.round(result.recorded / seconds),
      groupedAfterSeconds: Number(groupedSeconds.toFixed(2)),
    }, null, 2));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
