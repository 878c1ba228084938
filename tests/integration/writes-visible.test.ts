import { apiRequest } from "@/tests/support/auth";
import { afterAll, describe, expect, it } from "vitest";
import { GET as listCalls } from "@/app/api/calls/route";
import { POST as simulate } from "@/app/api/simulate/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { closeRedis } from "@/lib/redis";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";

// The listing is cached; a write through either writer must show on the very next read.
const total = async (query = "") => {
  const response = await listCalls(apiRequest(`http://localhost/api/calls${query}`), undefined);
  expect(response.status).toBe(200);
  return ((await response.json()) as { pagination: { total: number } }).pagination.total;
};

const post = (handler: typeof simulate, url: string, body: unknown) =>
  handler(
    apiRequest(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    undefined,
  );

describe("writes are visible on the next listing read", () => {
  afterAll(closeRedis);

  it("after a simulation", async () => {
    const before = await total();
    await total("?simulation=true");
    const response = await post(simulate, "http://localhost/api/simulate", { scenario: "earthquake_sf", num_calls: 25 });
    expect(response.status).toBe(200);
    expect(await total()).toBe(before + 25);
    expect(await total("?simulation=true")).toBe(before + 25);
  });

  it("a simulation of one call heads the newest-first listing right after it (nothing simulated is dated after its request)", async () => {
    // A simulation with duplicates first: were they dated after the request, they would head the listing.
    expect((await post(simulate, "http://localhost/api/simulate", { scenario: "la_wildfire", num_calls: 200 })).status).toBe(200);
    const response = await post(simulate, "http://localhost/api/simulate", { scenario: "nashville_tornado", num_calls: 1 });
    const { sample_calls: simulated } = (await response.json()) as { sample_calls: { call_id: string }[] };
    const listed = await listCalls(apiRequest("http://localhost/api/calls?limit=1"), undefined);
    expect(((await listed.json()) as { calls: { call_id: string }[] }).calls[0].call_id).toBe(simulated[0].call_id);
  });

  it("after a webhook call", async () => {
    const before = await total("?simulation=false");
    const response = await post(
      webhook,
      "http://localhost/api/voiceagent-webhook",
      specCallEvent("conv-visible-1", { location: "Mission District, San Francisco" }),
    );
    expect(response.status).toBe(200);
    expect(await total("?simulation=false")).toBe(before + 1);
  });
});
