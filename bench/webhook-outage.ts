/**
 * Outbound webhooks through a receiver outage and a restart of every instance (issue 24,
 * acceptance 1 and 2): two production servers over one scratch database, SUBSCRIPTIONS
 * subscriptions (every event type) to one local receiver that refuses everything (503) for
 * DOWN_SECONDS while CALLS signed calls arrive at RATE a minute, half through each server; both
 * servers are stopped and started again halfway through the outage. Once the receiver is back it
 * waits until every subscription has every call's call.created, then reports per subscription:
 * events accepted, accepted twice (by webhook-id), signatures that failed, events out of change
 * order within an incident, and calls missing.
 *
 *   npm run build && npx tsx bench/webhook-outage.ts   (server: BENCH_DATABASE_URL, else 127.0.0.1:5432)
 *   DOWN_SECONDS=600 CALLS=5000 RATE=500 SUBSCRIPTIONS=10 npx tsx bench/webhook-outage.ts
 */
import { mkdtemp } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { specCallEvent } from "../lib/voice-platforms/elevenlabs/sample-events";
import { benchAuth, type ProductionServer, startProductionServer } from "./production-server";
import { postSigned } from "./post-call";
import { withScratchClient } from "./scratch-database";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const downSeconds = Number(process.env.DOWN_SECONDS ?? 600);
const calls = Number(process.env.CALLS ?? 5_000);
const rate = Number(process.env.RATE ?? 500);
const subscriptionCount = Number(process.env.SUBSCRIPTIONS ?? 10);
const catchUpLimitSeconds = Number(process.env.CATCH_UP_LIMIT_SECONDS ?? 1_800);
const SECRET = "bench-outage-secret";
const PORTS = [3951, 3952];
// Callers across a few streets, so incidents gather several calls each.
const LOCATIONS = ["Mission District, San Francisco", "Castro District, San Francisco", "Richmond District, San Francisco", "Sunset District, San Francisco"];

interface Accepted {
  id: string;
  change: number;
  incident: string;
}

async function main(): Promise<void> {
  await withScratchClient(server, async (_client, url) => {
    let up = false;
    const secrets = new Map<string, Webhook>();
    const accepted = new Map<string, Accepted[]>();
    const badSignatures = new Map<string, number>();
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        if (!up) {
          response.writeHead(503).end("down");
          return;
        }
        const name = request.url!.split("/").at(-1)!;
        const body = Buffer.concat(chunks).toString("utf8");
        try {
          const event = secrets.get(name)!.verify(body, request.headers as Record<string, string>) as {
            id: string; change: number; data: { incident?: { id: string }; call: { incident_id: string } };
          };
          const list = accepted.get(name) ?? [];
          list.push({ id: event.id, change: event.change, incident: event.data.incident?.id ?? event.data.call.incident_id });
          accepted.set(name, list);
        } catch {
          badSignatures.set(name, (badSignatures.get(name) ?? 0) + 1);
        }
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const blobs = await mkdtemp(path.join(tmpdir(), "mayday-outage-blobs-"));
    const env = { DATABASE_URL: url, VOICEAGENT_WEBHOOK_SECRET: SECRET, TRUST_PROXY: "1", EXERCISE_TICK_MS: "0", SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: "true", BLOB_DIR: blobs };
    const start = () => Promise.all(PORTS.map((port) => startProductionServer(port, env)));
    let servers: ProductionServer[] = await start();
    try {
      for (let index = 0; index < subscriptionCount; index++) {
        const response = await fetch(`${servers[0].base}/api/subscriptions`, {
          method: "POST",
          headers: { ...benchAuth, "content-type": "application/json", "x-forwarded-for": "198.51.100.250" },
          body: JSON.stringify({
            name: `s${index}`, url: `${target}/s${index}`,
            event_types: ["call.created", "call.status_changed", "incident.created", "incident.updated", "incident.closed"],
          }),
        });
        if (response.status !== 201) throw new Error(`subscription answered ${response.status}: ${await response.text()}`);
        secrets.set(`s${index}`, new Webhook(((await response.json()) as { secret: string }).secret));
      }

      // The outage: calls at RATE a minute, alternating servers; every instance restarts halfway.
      const started = Date.now();
      const conversations: string[] = [];
      let restarted = false;
      for (let index = 0; index < calls; index++) {
        const due = started + (index * 60_000) / rate;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        if (!restarted && Date.now() - started >= (downSeconds * 1000) / 2) {
          restarted = true;
          for (const running of servers) running.stop();
          servers = await start();
        }
        const id = `outage_${index}`;
        const event = specCallEvent(id, { location: LOCATIONS[index % LOCATIONS.length], eventTimestamp: Math.floor(Date.now() / 1000) });
        const payload = JSON.stringify(event);
        await postSigned(servers[index % 2].base, SECRET, payload, index);
        conversations.push(id);
      }
      const remaining = started + downSeconds * 1000 - Date.now();
      if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
      up = true;
      const back = Date.now();
      const createdCount = (name: string) => (accepted.get(name) ?? []).filter((event) => event.id.endsWith("_call.created")).length;
      while ([...secrets.keys()].some((name) => createdCount(name) < calls) && Date.now() - back < catchUpLimitSeconds * 1000) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const caughtUpSeconds = (Date.now() - back) / 1000;
      const perSubscription = [...secrets.keys()].map((name) => {
        const list = accepted.get(name) ?? [];
        const ids = new Set<string>();
        let twice = 0;
        for (const event of list) {
          if (ids.has(event.id)) twice += 1;
          ids.add(event.id);
        }
        const lastChange = new Map<string, number>();
        let outOfOrder = 0;
        for (const event of list) {
          if ((lastChange.get(event.incident) ?? -1) > event.change) outOfOrder += 1;
          lastChange.set(event.incident, event.change);
        }
        const types: Record<string, number> = {};
        for (const event of list) {
          const type = event.id.slice(event.id.indexOf("_", 4) + 1);
          types[type] = (types[type] ?? 0) + 1;
        }
        return { name, accepted: list.length, types, distinct: ids.size, acceptedTwice: twice, outOfOrderInIncident: outOfOrder, badSignatures: badSignatures.get(name) ?? 0, callsMissing: calls - createdCount(name) };
      });
      console.log(JSON.stringify({
        downSeconds, calls, ratePerMinute: rate, instances: PORTS.length, restartedEveryInstance: restarted, subscriptions: subscriptionCount,
        caughtUpSecondsAfterBack: Number(caughtUpSeconds.toFixed(1)),
        totals: {
          accepted: perSubscription.reduce((sum, row) => sum + row.accepted, 0),
          acceptedTwice: perSubscription.reduce((sum, row) => sum + row.acceptedTwice, 0),
          outOfOrderInIncident: perSubscription.reduce((sum, row) => sum + row.outOfOrderInIncident, 0),
          badSignatures: perSubscription.reduce((sum, row) => sum + row.badSignatures, 0),
          callsMissing: perSubscription.reduce((sum, row) => sum + row.callsMissing, 0),
        },
        perSubscription,
      }, null, 2));
    } finally {
      for (const running of servers) running.stop();
      receiver.close();
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
