import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { GET as listCalls } from "@/app/api/calls/route";
import { GET as getIncident } from "@/app/api/incidents/[id]/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { callDetailSchema, callListSchema } from "@/lib/calls/schema";
import { incidentDetailSchema } from "@/lib/incidents/schema";
import { apiRequest } from "../support/auth";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { groupNow } from "@/lib/incidents/grouper";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";

/**
 * Grouping respects precision (docs/incidents.md, "Grouping"): without GIS data the gazetteer puts
 * a spoken address at its town's centre, and two such calls are grouped only when their
 * normalised addresses agree, never on distance alone. Every delivery is signed.
 */
const SECRET = "grouping-precision-secret";
const originalSecret = process.env.VOICEAGENT_WEBHOOK_SECRET;
beforeAll(() => {
  process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
  resetConfigForTests();
});
afterAll(() => {
  if (originalSecret === undefined) delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  else process.env.VOICEAGENT_WEBHOOK_SECRET = originalSecret;
  resetConfigForTests();
});

const runId = randomInt(1_000_000);
let counter = 0;
// Each case a day of its own: no grouping window reaches another case's calls.
let day = 0;

async function postSigned(location: string, at: number): Promise<string> {
  const id = `conv_precision_${runId}_${++counter}`;
  const response = await webhook(webhookRequest(specCallEvent(id, { location, eventTimestamp: at }), { secret: SECRET }), undefined);
  expect(response.status).toBe(200);
  return id;
}

/** The calls of one case, each posted 5 minutes after the one before, grouped; their stored rows. */
async function postCalls(...locations: string[]) {
  const start = 1_767_225_600 + ++day * 86_400;
  const ids: string[] = [];
  for (const [index, location] of locations.entries()) ids.push(await postSigned(location, start + index * 300));
  await groupNow();
  const db = await getDb();
  return Promise.all(ids.map((conversationId) => db.call.findUniqueOrThrow({ where: { conversationId }, include: { incident: true } })));
}

describe("grouping respects precision", () => {
  it("two addresses placed at one town centre are two incidents", async () => {
    const calls = await postCalls("2200 Collins Avenue, Miami Beach", "3100 Collins Avenue, Miami Beach");
    expect(calls.map((call) => [call.latitude, call.longitude])).toEqual([[25.7907, -80.13], [25.7907, -80.13]]);
    for (const call of calls) {
      expect(call).toMatchObject({ locationPrecision: "locality", locationSource: "gazetteer", locationUncertaintyM: 3000 });
    }
    expect(new Set(calls.map((call) => call.incidentId)).size).toBe(2);
    expect(calls[0].incident).toMatchObject({ callCount: 1, locationPrecision: "locality" });
  });

  it("the same address, spelled with or without the suffix's abbreviation, is one incident", async () => {
    const calls = await postCalls("2200 Collins Avenue, Miami Beach", "2200 collins ave. Miami Beach");
    expect(new Set(calls.map((call) => call.incidentId)).size).toBe(1);
    expect(calls[1].incident).toMatchObject({ callCount: 2, locationPrecision: "locality" });

    // The incident shows each call's own address, precision and distance from its centre.
    const incidentId = calls[0].incidentId;
    const detail = incidentDetailSchema.parse(
      await (await getIncident(apiRequest(`http://localhost/api/incidents/${incidentId}`), { params: Promise.resolve({ id: incidentId }) })).json(),
    );
    expect(detail.location_precision).toBe("locality");
    expect(detail.calls.map((call) => [call.location, call.location_precision, call.location_uncertainty_m, call.location_source, call.distance_m])).toEqual([
      ["2200 Collins Avenue, Miami Beach", "locality", 3000, "gazetteer", 0],
      ["2200 collins ave. Miami Beach", "locality", 3000, "gazetteer", 0],
    ]);
    // And the calls API, listing and detail.
    const id = calls[1].conversationId;
    const listed = callListSchema.parse(await (await listCalls(apiRequest(`http://localhost/api/calls?q=${encodeURIComponent("collins ave.")}`))).json());
    expect(listed.calls.find((call) => call.conversation_id === id)).toMatchObject({ location_precision: "locality", location_source: "gazetteer" });
    const one = callDetailSchema.parse(await (await getCall(apiRequest(`http://localhost/api/calls/${id}`), { params: Promise.resolve({ id }) })).json());
    expect(one).toMatchObject({ location_precision: "locality", location_uncertainty_m: 3000, location_source: "gazetteer" });
  });

  it("two neighbourhoods the gazetteer places at their city's centre are two incidents", async () => {
    const calls = await postCalls("Wynwood, Miami", "Overtown, Miami");
    expect(calls[0].latitude).toBe(calls[1].latitude);
    expect(new Set(calls.map((call) => call.incidentId)).size).toBe(2);
  });

  it("calls with the platform's coordinates are still grouped on distance", async () => {
    const start = 1_767_225_600 + ++day * 86_400;
    const ids = [`conv_precision_${runId}_${++counter}`, `conv_precision_${runId}_${++counter}`];
    for (const [index, id] of ids.entries()) {
      const event = specCallEvent(id, { location: index === 0 ? "400 Ocean Drive" : "410 Ocean Dr, near the pier", eventTimestamp: start + index * 60 });
      const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
      results.latitude = { value: -41.5 + index * 0.0005, rationale: "test" };
      results.longitude = { value: -151.25, rationale: "test" };
      expect((await webhook(webhookRequest(event, { secret: SECRET }), undefined)).status).toBe(200);
    }
    const db = await getDb();
    const calls = await Promise.all(ids.map((conversationId) => db.call.findUniqueOrThrow({ where: { conversationId } })));
    expect(calls[0]).toMatchObject({ locationSource: "platform", locationPrecision: "address_point" });
    expect(calls[0].incidentId).toBe(calls[1].incidentId);
  });
});
