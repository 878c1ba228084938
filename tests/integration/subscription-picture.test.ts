import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomInt } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listIncidentsRoute } from "@/app/api/incidents/route";
import { POST as createSubscription } from "@/app/api/subscriptions/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { updateCall } from "@/lib/calls/update";
import { regroupCorrectedCall } from "@/lib/incidents/regroup";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { mergeIncidents } from "@/lib/incidents/merge";
import type { IncidentRecord } from "@/lib/incidents/schema";
import { splitCall } from "@/lib/incidents/split";
import { updateIncident } from "@/lib/incidents/update";
import { readFeedHead } from "@/lib/feed";
import { stopChangeTail } from "@/lib/board/change-tail";
import { addNote } from "@/lib/notes/add";
import { listNotes } from "@/lib/notes/list";
import type { SubscriptionWithSecret } from "@/lib/subscriptions/schema";
import { EVENT_TYPES } from "@/lib/subscriptions/event-types";
import { startDeliveryWorker } from "@/lib/subscriptions/worker";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest, testAdmin } from "../support/auth";
import { webhookRequest } from "../support/webhook-request";

/**
 * Acceptance of docs/integrations.md, "Events": a CAD that keeps its picture of the incidents from
 * the events alone (as the docs describe them) ends with the picture the API shows, after a day of
 * merges, splits, a correction that moves a call, an incident-only status move, notes and closing.
 */

const MISSION = { text: "Mission District, San Francisco", lat: 37.7599, lon: -122.4148 };
const MARINA = { text: "Marina District, San Francisco", lat: 37.8037, lon: -122.4368 };
const SUNSET = { text: "Outer Sunset, San Francisco", lat: 37.7552, lon: -122.4944 };

const saved = { secret: process.env.VOICEAGENT_WEBHOOK_SECRET, geocoder: process.env.GEOCODER_URL, allow: process.env.SUBSCRIPTION_ALLOW_PRIVATE_TARGETS };
beforeAll(() => {
  delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  delete process.env.GEOCODER_URL;
  process.env.SUBSCRIPTION_ALLOW_PRIVATE_TARGETS = "true";
  resetConfigForTests();
});
afterAll(async () => {
  for (const [name, value] of Object.entries({ VOICEAGENT_WEBHOOK_SECRET: saved.secret, GEOCODER_URL: saved.geocoder, SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: saved.allow })) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigForTests();
  await stopChangeTail();
});

const runId = randomInt(1_000_000);
let counter = 0;
const START = 1_767_225_600;

async function postCall(place: { text: string; lat: number; lon: number }, at: number): Promise<string> {
  const id = `conv_picture_${runId}_${++counter}`;
  const event = specCallEvent(id, { location: place.text, eventTimestamp: at });
  const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
  results.latitude = { value: place.lat, rationale: "test" };
  results.longitude = { value: place.lon, rationale: "test" };
  const response = await webhook(webhookRequest(event), undefined);
  expect(response.status).toBe(200);
  return id;
}

interface Event {
  id: string;
  type: string;
  data: { incident?: IncidentRecord; merged_into?: string; note?: { id: string; incident_id: string } };
}

/** The receiver: verifies each event, drops redeliveries by id, and keeps its picture from the events alone. */
function cad(secret: string) {
  const verifier = new Webhook(secret);
  const seen = new Set<string>();
  const incidents = new Map<string, IncidentRecord & { merged_into?: string }>();
  const notes = new Map<string, Set<string>>();
  const notesOf = (id: string) => notes.get(id) ?? notes.set(id, new Set()).get(id)!;
  const apply = (event: Event) => {
    const { incident, merged_into, note } = event.data;
    if (event.type === "note.created") notesOf(note!.incident_id).add(note!.id);
    else if (event.type === "incident.merged") {
      incidents.set(incident!.id, { ...incident!, merged_into });
      // Its notes now belong to the incident it was merged into.
      for (const id of notesOf(incident!.id)) notesOf(merged_into!).add(id);
      notes.delete(incident!.id);
    } else if (event.type.startsWith("incident.")) incidents.set(incident!.id, incident!);
  };
  const handler = (body: string, headers: Record<string, string>) => {
    const event = verifier.verify(body, headers) as Event;
    if (seen.has(event.id)) return;
    seen.add(event.id);
    apply(event);
  };
  return { handler, incidents, notes, seen };
}

describe("a CAD built from the events alone", () => {
  it("keeps the API's picture through splits, merges, corrections, status moves, notes and closing", async () => {
    // The receiver is made once the subscription's secret is known.
    const cadHolder: { receiver?: ReturnType<typeof cad> } = {};
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
        cadHolder.receiver!.handler(Buffer.concat(chunks).toString("utf8"), headers);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cad`;
    const created = await createSubscription(
      apiRequest("http://localhost/api/subscriptions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "CAD", url, event_types: EVENT_TYPES }),
      }),
      undefined,
    );
    expect(created.status).toBe(201);
    const subscription = (await created.json()) as SubscriptionWithSecret;
    const receiver = (cadHolder.receiver = cad(subscription.secret));
    const worker = startDeliveryWorker({ retry: { firstMs: 20, maxMs: 80, windowMs: 3_600_000 }, pollMs: 50 });
    try {
      const db = await getDb();
      const incidentOf = async (conversationId: string) =>
        (await db.call.findUniqueOrThrow({ where: { conversationId }, select: { incidentId: true } })).incidentId;

      // Morning: three callers about one fire, one about another, two about a third.
      const a = [await postCall(MISSION, START), await postCall(MISSION, START + 60), await postCall(MISSION, START + 120)];
      const b = await postCall(MARINA, START + 30);
      const c = [await postCall(SUNSET, START + 40), await postCall(SUNSET, START + 50)];
      const [incidentA, incidentB, incidentC] = [await incidentOf(a[0]), await incidentOf(b), await incidentOf(c[0])];
      await addNote(incidentA, { text: "Engine 12 sent", unitId: null }, testAdmin);
      await addNote(incidentC, { text: "Caller says smoke only", unitId: null }, testAdmin);

      // A split (3 calls to 2, and a new incident), then a merge (incident C gone into B, its note with it).
      const split = await splitCall(incidentA, a[2], testAdmin);
      await addNote(split.id, { text: "Separate fire, second floor", unitId: null }, testAdmin);
      await mergeIncidents(incidentB, incidentC, testAdmin);

      // Three hours later: two callers at the Marina; one was really at the Mission (a correction that moves it out).
      const d = [await postCall(MARINA, START + 3 * 3600), await postCall(MARINA, START + 3 * 3600 + 30)];
      const incidentD = await incidentOf(d[0]);
      expect(await incidentOf(d[1])).toBe(incidentD);
      await updateCall(d[1], { location: MISSION.text, confirm_lower_precision: true }, testAdmin, regroupCorrectedCall);
      expect(await incidentOf(d[1])).not.toBe(incidentD);
      // A caller alone at the Sunset was at the Marina too: the correction joins D and empties the caller's incident.
      const e = await postCall(SUNSET, START + 3 * 3600 + 60);
      const incidentE = await incidentOf(e);
      await updateCall(e, { location: MARINA.text, confirm_lower_precision: true }, testAdmin, regroupCorrectedCall);
      expect(await incidentOf(e)).toBe(incidentD);

      // Each of B's calls dispatched by itself, then the incident: a status move that moves none of its calls.
      for (const id of [b, ...c]) await updateCall(id, { status: "dispatched" }, testAdmin, regroupCorrectedCall);
      await updateIncident(incidentB, { status: "dispatched", dispatch_reason: "Units sent by radio" }, testAdmin);
      // D's calls resolved: D closes with them.
      for (const id of [d[0], e]) await updateCall(id, { status: "resolved" }, testAdmin, regroupCorrectedCall);

      const head = await readFeedHead(db);
      for (let round = 0; round < 400; round++) {
        worker.kick();
        await worker.idle();
        const row = await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
        if (Number(row.cursor) >= head) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(Number((await db.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).cursor)).toBeGreaterThanOrEqual(head);

      const listed = await listIncidentsRoute(apiRequest("http://localhost/api/incidents?limit=1000"), undefined);
      // The listing's possible duplicates are the dispatchers' to decide, not the incident's record the events carry.
      const api = new Map(((await listed.json()) as { incidents: (IncidentRecord & { possible_duplicates: unknown })[] }).incidents
        .map((listed) => {
          const incident: Partial<typeof listed> = { ...listed };
          delete incident.possible_duplicates;
          return [listed.id, incident];
        }));
      const ours = [...new Set(await Promise.all([...a, b, ...c, ...d, e].map(incidentOf)))];
      // Every incident the day's calls are in now: the CAD's record is the API's.
      for (const id of ours) expect(receiver.incidents.get(id)).toEqual(api.get(id));
      // Every incident the CAD heard of: as the API lists it, or gone, merged into one that is.
      for (const [id, incident] of receiver.incidents) {
        if (incident.merged_into === undefined) expect(incident).toEqual(api.get(id));
        else {
          expect(api.has(id)).toBe(false);
          expect(api.has(incident.merged_into)).toBe(true);
        }
      }
      expect(receiver.incidents.get(incidentC)?.merged_into).toBe(incidentB);
      expect(receiver.incidents.get(incidentA)?.call_count).toBe(2);
      expect(receiver.incidents.get(incidentB)).toMatchObject({ status: "dispatched", call_count: 3 });
      expect(receiver.incidents.get(incidentE)?.merged_into).toBe(incidentD);
      expect(receiver.incidents.get(incidentD)).toMatchObject({ status: "resolved", call_count: 2 });
      // Notes, each under the incident the API shows it in.
      for (const id of ours) {
        const page = await listNotes(id, { limit: 200, before: undefined });
        expect([...(receiver.notes.get(id) ?? [])].sort()).toEqual(page.notes.map((note) => note.id).sort());
      }
      expect(receiver.notes.get(incidentB)?.size).toBe(1);
    } finally {
      await worker.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const db = await getDb();
      await db.$executeRaw`DELETE FROM subscriptions`;
    }
  });
});
