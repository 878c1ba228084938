import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";

// Every scenario area of docs/interface.md with its centre, and how a caller might name it.
const AREAS: Array<[string, number, number, string]> = [
  ["Pacific Palisades", 34.0481, -118.5265, "1200 Via de la Paz, Pacific Palisades"],
  ["Malibu", 34.0259, -118.7798, "22000 Pacific Coast Hwy, Malibu, CA"],
  ["Topanga", 34.0937, -118.6012, "Topanga Canyon Blvd near the state park, Topanga"],
  ["Brentwood", 34.0591, -118.4765, "11700 San Vicente Blvd, Brentwood"],
  ["Santa Monica Mountains", 34.1, -118.75, "a trail in the Santa Monica Mountains"],
  ["Downtown Nashville", 36.1627, -86.7816, "Broadway and 5th, downtown Nashville"],
  ["East Nashville", 36.175, -86.75, "1000 Gallatin Ave, East Nashville, TN"],
  ["Germantown", 36.1812, -86.7903, "1200 5th Ave N, Germantown"],
  ["The Gulch", 36.152, -86.787, "600 12th Ave S, The Gulch"],
  ["Music Row", 36.149, -86.793, "30 Music Square W, Music Row, Nashville"],
  ["Marina District", 37.8037, -122.4368, "2000 Chestnut St, Marina District"],
  ["Mission District", 37.7599, -122.4148, "Mission District, San Francisco"],
  ["Financial District", 37.7946, -122.3999, "555 California St, Financial District, SF"],
  ["Miami Beach", 25.7907, -80.13, "1500 Collins Ave, Miami Beach, FL"],
  ["Fort Lauderdale", 26.1224, -80.1373, "Las Olas Blvd, Ft. Lauderdale"],
  ["West Palm Beach", 26.7153, -80.0534, "Clematis St, West Palm Beach"],
];

let counter = 0;

async function geocodedRecord(location: string) {
  const event = specCallEvent(`conv_geo_${++counter}`, { location });
  const response = await POST(webhookRequest(event), undefined);
  expect(response.status).toBe(200);
  return (await getDb()).call.findUniqueOrThrow({ where: { conversationId: event.data.conversation_id } });
}

beforeAll(() => {
  delete process.env.GEOCODER_URL;
  delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  delete process.env.VOICEAGENT_REQUIRE_SIGNATURE;
  resetConfigForTests();
});

describe("webhook geocoding with the embedded gazetteer", () => {
  it.each(AREAS)("places a call in %s at the area's centre", async (_area, latitude, longitude, location) => {
    expect(await geocodedRecord(location)).toMatchObject({ latitude, longitude, locationSource: "gazetteer" });
  });

  it.each([
    ["the Palisades", 34.0481, -118.5265],
    ["SF", 37.7749, -122.4194],
    ["the Mission, San Francisco", 37.7599, -122.4148],
    ["FiDi", 37.7946, -122.3999],
    ["West Palm", 26.7153, -80.0534],
    ["south beach", 25.7907, -80.13],
  ])("knows the common name %s", async (location, latitude, longitude) => {
    expect(await geocodedRecord(location)).toMatchObject({ latitude, longitude, locationSource: "gazetteer" });
  });

  it("places other US towns and ZIPs from the offline data", async () => {
    const town = await geocodedRecord("400 Main St, Brentwood, TN");
    expect(town.latitude).toBeCloseTo(36.033, 2);
    expect(town.longitude).toBeCloseTo(-86.783, 2);
    const zip = await geocodedRecord("12 Oak Lane, Springfield, IL 62701");
    expect(zip.latitude).toBeCloseTo(39.8, 1);
    expect(zip.longitude).toBeCloseTo(-89.65, 1);
  });

  it("keeps the record with null coordinates when nothing matches", async () => {
    expect(await geocodedRecord("behind the old barn past the creek")).toMatchObject({
      location: "behind the old barn past the creek",
      latitude: null,
      longitude: null,
      locationSource: null,
    });
  });
});
