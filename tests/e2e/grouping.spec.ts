import { randomInt } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { signatureHeader } from "@/lib/voice-platforms/elevenlabs/signature";
import { E2E_WEBHOOK_SECRET } from "../../playwright.config";
import { incidentOf, untilSettled } from "./dashboard-helpers";

/**
 * Grouping respects precision on the production build, through the signed webhook
 * (docs/incidents.md, "Grouping"; tests/integration/grouping-precision.test.ts holds the same rules
 * below HTTP): street-level calls 1 km apart are two incidents, one address said two ways is one,
 * two addresses the gazetteer puts at one town centre are two. House numbers and points are drawn
 * per run, and the town (Key West) is no other spec's, so no other test's call is within reach and
 * precision.spec's Miami Beach incident stays the only marker at its town centre.
 */
const RUN = `${Date.now()}-${randomInt(1_000_000)}`;
let counter = 0;

async function postSigned(request: APIRequestContext, location: string, point?: { latitude: number; longitude: number }): Promise<string> {
  const id = `e2e-grouping-${RUN}-${++counter}`;
  const event = specCallEvent(id, { location, eventTimestamp: Math.floor(Date.now() / 1000) });
  if (point) {
    const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
    results.latitude = { value: point.latitude, rationale: "the caller's phone" };
    results.longitude = { value: point.longitude, rationale: "the caller's phone" };
  }
  const body = JSON.stringify(event);
  const response = await request.post("/api/voiceagent-webhook", {
    data: body,
    headers: { "content-type": "application/json", "elevenlabs-signature": signatureHeader(E2E_WEBHOOK_SECRET, body) },
  });
  expect(response.status(), await response.text()).toBe(200);
  return id;
}

/** How many incidents the calls are in once grouping has settled. */
async function incidentsOf(request: APIRequestContext, ids: string[]): Promise<number> {
  const incidents = await untilSettled(() => Promise.all(ids.map((id) => incidentOf(request, id))));
  return new Set(incidents).size;
}

test.describe("grouping through the signed webhook", () => {
  test("two street-level calls 1 km apart on one street are two incidents", async ({ request }) => {
    const latitude = -41 - randomInt(1_000) / 1_000;
    const number = 1_000 + randomInt(5_000);
    const near = await postSigned(request, `${number} Ocean Drive`, { latitude, longitude: -151.25 });
    const far = await postSigned(request, `${number + 900} Ocean Drive`, { latitude: latitude + 0.009, longitude: -151.25 }); // about 1 km north
    expect(await incidentsOf(request, [near, far])).toBe(2);
    const stored = await (await request.get(`/api/calls/${near}`)).json();
    expect(stored).toMatchObject({ location_source: "platform", location_precision: "address_point" });
  });

  test("one address said two ways is one incident", async ({ request }) => {
    const number = 5_000 + randomInt(4_000);
    const first = await postSigned(request, `${number} Duval Street, Key West`);
    const second = await postSigned(request, `${number} duval st. Key West`);
    expect(await incidentsOf(request, [first, second])).toBe(1);
  });

  test("two addresses the gazetteer puts at one town centre are two incidents", async ({ request }) => {
    const number = 10_000 + randomInt(4_000);
    const first = await postSigned(request, `${number} Duval Street, Key West`);
    const second = await postSigned(request, `${number + 900} Duval Street, Key West`);
    const [one, two] = await Promise.all([first, second].map(async (id) => (await request.get(`/api/calls/${id}`)).json()));
    expect([one.latitude, one.longitude]).toEqual([two.latitude, two.longitude]);
    expect(one).toMatchObject({ location_precision: "locality", location_source: "gazetteer" });
    expect(await incidentsOf(request, [first, second])).toBe(2);
  });
});
