import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { getDb } from "@/lib/db/client";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { correctCall as patch } from "../support/correct-call";
import { withoutEnv } from "../support/env";
import { webhookRequest } from "../support/webhook-request";

/**
 * Corrections and precision (docs/calls.md, "Corrections"): a correction that would lower the
 * call's precision is refused until confirmed; one that moves the call out of its incident says
 * so, and correcting back is the undo.
 */
withoutEnv("VOICEAGENT_WEBHOOK_SECRET", "GEOCODER_URL");

const runId = randomInt(1_000_000);
let counter = 0;
let day = 0;

async function postCall(location: string, at: number, point?: { lat: number; lon: number }): Promise<string> {
  const id = `conv_correct_precision_${runId}_${++counter}`;
  const event = specCallEvent(id, { location, eventTimestamp: at });
  if (point) {
    const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
    results.latitude = { value: point.lat, rationale: "test" };
    results.longitude = { value: point.lon, rationale: "test" };
  }
  expect((await webhook(webhookRequest(event), undefined)).status).toBe(200);
  return id;
}

const stored = async (conversationId: string) => (await getDb()).call.findUniqueOrThrow({ where: { conversationId } });

describe("corrections and precision", () => {
  it("a correction that lowers the precision is refused until confirmed, and changes nothing before", async () => {
    const at = 1_767_225_600 + ++day * 86_400;
    const id = await postCall("400 Ocean Drive, Miami Beach", at, { lat: 25.7732, lon: -80.1307 });
    expect(await stored(id)).toMatchObject({ locationPrecision: "address_point", locationSource: "platform" });

    const refused = await patch(id, { location: "Miami" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error_code: "PRECISION_LOWERED", from_precision: "address_point", to_precision: "locality" });
    expect(await stored(id)).toMatchObject({ location: "400 Ocean Drive, Miami Beach", latitude: 25.7732, locationPrecision: "address_point" });

    const confirmed = await patch(id, { location: "Miami", confirm_lower_precision: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ location: "Miami", location_precision: "locality", location_source: "gazetteer" });
  });

  it("a correction that moves a call out of its incident says so; correcting back re-joins it", async () => {
    const at = 1_767_225_600 + ++day * 86_400;
    const first = await postCall("Music Row, Nashville", at);
    const second = await postCall("Music Row, Nashville", at + 120);
    const incident = (await stored(first)).incidentId;
    expect((await stored(second)).incidentId).toBe(incident);

    // "X and Y" (and "corner of X and Y") is a location like any other: geocoded as well as the geocoders can.
    const moved = await patch(second, { location: "corner of 16th Ave S and Division St, Nashville, TN" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ moved_out_of: incident, location_precision: "locality" });
    expect(moved.body.incident_id).not.toBe(incident);

    const undone = await patch(second, { location: "Music Row, Nashville" });
    expect(undone.status).toBe(200);
    expect(undone.body.incident_id).toBe(incident);
    expect(undone.body.moved_out_of).toBeUndefined();
  });
});
