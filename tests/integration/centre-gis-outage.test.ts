import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from "vitest";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { importGisLayer } from "@/lib/geocoding/centre/import";
import { forgetCentreIndex, getCentreIndex } from "@/lib/geocoding/centre/loaded";
import { GeocoderUnavailableError, getGeocoder } from "@/lib/geocoding/geocoder";
import { log } from "@/lib/log";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { setDatabaseReachable } from "../support/database-reachable";
import { webhookRequest } from "../support/webhook-request";

/**
 * The centre's GIS index once built answers from what it holds when its freshness check (a read of
 * gis_layers every 10 s) cannot reach the database (issue 49): a database blip is no geocoding
 * failure. Only a lookup that needs the database, the first build, fails when it cannot read it.
 */

const SECRET = "wsec_centre_gis_outage";
const CHECK_FAILED = "centre GIS data could not be checked for a newer import: answering from the index held";
const READABLE_AGAIN = "centre GIS data readable again";
const TOWN = [
  "Add_Number,St_PreDir,St_Name,St_PosTyp,Post_Comm,Post_Code,State,lon,lat",
  "725,W,Oak,Ave,Springfield,62701,IL,-89.6486933,39.7798768",
  "773,W,Oak,Ave,Springfield,62701,IL,-89.6494881,39.7798900",
].join("\n");

let counter = 0;
/** How far the clock is moved on: every 11 s passes one freshness check's interval. */
let offset = 0;
const realNow = Date.now.bind(Date);
const nextInterval = () => {
  offset += 11_000;
};

/** gis_layers cannot be read (any database, PGlite too): the freshness check fails, the rest of the database works. */
async function gisLayersReadable(readable: boolean): Promise<void> {
  const db = await getDb();
  await db.$executeRawUnsafe(
    readable ? "ALTER TABLE IF EXISTS gis_layers_unreadable RENAME TO gis_layers" : "ALTER TABLE gis_layers RENAME TO gis_layers_unreadable",
  );
}

/** A signed delivery whose location the geocoder places: the answer's status and the point stored. */
async function deliver(location: string) {
  const event = specCallEvent(`conv_gis_outage_${++counter}`, { location });
  const response = await POST(webhookRequest(event, { secret: SECRET }), undefined);
  const call = await (await getDb()).call.findUnique({
    where: { conversationId: event.data.conversation_id },
    select: { latitude: true, longitude: true, locationSource: true },
  });
  return { status: response.status, call };
}

/** How many times `message` went to the log through `spy`. */
const logged = (spy: { mock: { calls: unknown[][] } }, message: string) => spy.mock.calls.filter((args) => args.includes(message)).length;

beforeAll(() => {
  delete process.env.GEOCODER_URL;
  process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
  resetConfigForTests();
});

afterAll(() => {
  delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  resetConfigForTests();
});

beforeEach(() => {
  vi.spyOn(Date, "now").mockImplementation(() => realNow() + offset);
  forgetCentreIndex();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await gisLayersReadable(true);
});

describe("the centre's GIS index when gis_layers cannot be read", () => {
  it("empty (no GIS data): geocoding answers through failing checks, logged once; the first build, which needs the database, fails", async () => {
    expect(await getCentreIndex()).toBeUndefined();
    const warn = vi.spyOn(log, "warn");
    const info = vi.spyOn(log, "info");
    await gisLayersReadable(false);

    for (let check = 0; check < 3; check++) {
      nextInterval();
      expect(await getGeocoder().geocode("Mission District, San Francisco")).toMatchObject({ source: "gazetteer", precision: "locality" });
    }
    nextInterval();
    expect(await deliver("Mission District, San Francisco")).toEqual({
      status: 200,
      call: { latitude: 37.7599, longitude: -122.4148, locationSource: "gazetteer" },
    });
    expect(logged(warn, CHECK_FAILED)).toBe(1);

    // Retried at the next interval: readable again, and said so once.
    await gisLayersReadable(true);
    nextInterval();
    expect(await getGeocoder().geocode("Mission District, San Francisco")).toMatchObject({ source: "gazetteer" });
    expect(logged(info, READABLE_AGAIN)).toBe(1);

    // Nothing held: the lookup needs the database, and cannot read it.
    await gisLayersReadable(false);
    forgetCentreIndex();
    await expect(getGeocoder().geocode("Mission District, San Francisco")).rejects.toBeInstanceOf(GeocoderUnavailableError);
  });

  it("loaded: its address points keep answering through failing checks, for the geocoder and a signed webhook", async () => {
    await importGisLayer({ format: "csv", chunks: Readable.from([Buffer.from(TOWN)]) as AsyncIterable<Uint8Array>, sourceName: "town.csv" });
    const expected = { source: "centre_gis", precision: "address_point", latitude: 39.7798768, longitude: -89.6486933 };
    expect(await getGeocoder().geocode("725 W Oak Ave, Springfield")).toMatchObject(expected);
    const warn = vi.spyOn(log, "warn");
    await gisLayersReadable(false);

    for (let check = 0; check < 3; check++) {
      nextInterval();
      expect(await getGeocoder().geocode("725 W Oak Ave, Springfield")).toMatchObject(expected);
    }
    nextInterval();
    expect(await deliver("773 W Oak Ave, Springfield")).toEqual({
      status: 200,
      call: { latitude: 39.77989, longitude: -89.6494881, locationSource: "centre_gis" },
    });
    expect(logged(warn, CHECK_FAILED)).toBe(1);
  });

  it.skipIf(inject("testDatabase").kind !== "postgresql")("loaded, the whole database down: the index held still answers", async () => {
    await importGisLayer({ format: "csv", chunks: Readable.from([Buffer.from(TOWN)]) as AsyncIterable<Uint8Array>, sourceName: "town.csv" });
    expect(await getGeocoder().geocode("725 W Oak Ave, Springfield")).toMatchObject({ source: "centre_gis" });
    await setDatabaseReachable(false);
    try {
      nextInterval();
      expect(await getGeocoder().geocode("725 W Oak Ave, Springfield")).toMatchObject({ source: "centre_gis", precision: "address_point" });
      nextInterval();
      expect(await getGeocoder().geocode("773 W Oak Ave, Springfield")).toMatchObject({ source: "centre_gis", precision: "address_point" });
    } finally {
      await setDatabaseReachable(true);
    }
  });
});
