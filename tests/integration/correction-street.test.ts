import { randomInt } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { getDb } from "@/lib/db/client";
import { importGisLayer } from "@/lib/geocoding/centre/import";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { correctCall as patch } from "../support/correct-call";
import { withoutEnv } from "../support/env";
import { webhookRequest } from "../support/webhook-request";

/**
 * A correction naming a street the centre's GIS does not have, in a community it covers (issue 52
 * item 4; docs/calls.md, "Corrections"): refused with why (409 STREET_NOT_IN_GIS, the streets and
 * the community named), nothing changed; placed where the other geocoders put it only when the
 * dispatcher confirms (confirm_coarse). A street the GIS has is taken without a question.
 */
withoutEnv("VOICEAGENT_WEBHOOK_SECRET", "GEOCODER_URL");

const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");
beforeAll(async () => {
  for (const [format, name] of [["csv", "address-points.csv"], ["geojson", "centrelines.geojson"]] as const) {
    await importGisLayer({ format, chunks: createReadStream(path.join(FIXTURES, name)) as AsyncIterable<Uint8Array>, sourceName: name });
  }
}, 120_000);

const runId = randomInt(1_000_000);
let counter = 0;

async function postCall(location: string): Promise<string> {
  const id = `conv_correct_street_${runId}_${++counter}`;
  const event = specCallEvent(id, { location, eventTimestamp: 1_767_225_600 + counter * 86_400 });
  expect((await webhook(webhookRequest(event), undefined)).status).toBe(200);
  return id;
}

const stored = async (conversationId: string) => (await getDb()).call.findUniqueOrThrow({ where: { conversationId } });

describe("a correction to a street the centre's GIS does not have", () => {
  it("is refused with why, changes nothing, and is placed coarse only when confirmed", async () => {
    const id = await postCall("Structure fire, Springfield");
    const before = await stored(id);
    expect(before.locationPrecision).toBe("locality");

    const refused = await patch(id, { location: "Main St and 5th St, Springfield" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error_code: "STREET_NOT_IN_GIS", community: "Springfield", streets: ["Main St"], to_precision: "locality" });
    expect(refused.body.details ?? refused.body.message).toMatch(/no Main St in Springfield/);
    expect(await stored(id)).toMatchObject({ location: before.location, latitude: before.latitude, locationPrecision: "locality" });
    const corrections = await (await getDb()).callCorrection.count({ where: { callId: before.id } });
    expect(corrections).toBe(0);

    const confirmed = await patch(id, { location: "Main St and 5th St, Springfield", confirm_coarse: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ location: "Main St and 5th St, Springfield", location_precision: "locality", location_matched: null });
  });

  it("names the street the community lacks, and asks nothing of a street the GIS has", async () => {
    const id = await postCall("Structure fire, Springfield");
    const both = await patch(id, { location: "123 Foo Street in Springfield" });
    expect(both.status).toBe(409);
    expect(both.body).toMatchObject({ error_code: "STREET_NOT_IN_GIS", streets: ["Foo St"] });

    const known = await patch(id, { location: "5th St and Elm Ln, Springfield" });
    expect(known.status).toBe(200);
    expect(known.body).toMatchObject({ location_precision: "intersection", location_source: "centre_gis" });
    // A town named alone, with no street, is a place like any other.
    expect((await patch(id, { location: "Springfield", confirm_lower_precision: true })).status).toBe(200);
  });
});
