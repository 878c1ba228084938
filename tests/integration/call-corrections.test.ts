import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getOne, PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { GET as getIncident, PATCH as patchIncident } from "@/app/api/incidents/[id]/route";
import { POST as merge } from "@/app/api/incidents/[id]/merge/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { callDetailSchema, type CallDetail, EMERGENCY_TYPES, SEVERITIES } from "@/lib/calls/schema";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { incidentDetailSchema } from "@/lib/incidents/schema";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest } from "../support/auth";
import { setEnv, withoutEnv } from "../support/env";
import { signedIn, type SignedInPerson } from "../support/people";
import { startStandInServer } from "../support/stand-in-server";
import { webhookRequest } from "../support/webhook-request";
import { withMoveDetails } from "../support/incident-moves";

/**
 * Corrections (docs/calls.md, "Corrections"; docs/incidents.md, "Corrections"): PATCH
 * /api/calls/{id} and /api/incidents/{id} with emergency_type, severity and location, on real
 * PostgreSQL (or PGlite), through the route handlers.
 */

// Places the embedded gazetteer knows (lib/geocoding), a few kilometres apart. The calls carry the
// agent's coordinates (points): a correction to a gazetteer place (a locality) is confirmed.
const MISSION = { text: "Mission District, San Francisco", lat: 37.7599, lon: -122.4148 };
const MARINA = { text: "Marina District, San Francisco", lat: 37.8037, lon: -122.4368 };

const REDELIVERY_SECRET = "wsec_corrections";
withoutEnv("VOICEAGENT_WEBHOOK_SECRET", "GEOCODER_URL");

const runId = randomInt(1_000_000);
let counter = 0;
// Each test's calls an hour apart from every other test's, so grouping never mixes them.
let hour = 0;
const START = 1_767_225_600;
const nextHour = () => START + ++hour * 7_200;

/** A webhook call reported at a place (with the agent's coordinates), stored and grouped as the webhook does. */
async function postCall(place: { text: string; lat: number; lon: number }, at: number, type?: string): Promise<string> {
  const id = `conv_correct_${runId}_${++counter}`;
  const event = specCallEvent(id, { location: place.text, eventTimestamp: at });
  const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
  results.latitude = { value: place.lat, rationale: "test" };
  results.longitude = { value: place.lon, rationale: "test" };
  if (type) results.emergency_type = { value: type, rationale: "test" };
  const response = await webhook(webhookRequest(event), undefined);
  expect(response.status).toBe(200);
  return id;
}

const context = (id: string) => ({ params: Promise.resolve({ id }) });
const fromDashboard = (cookie: string) => ({ cookie, "sec-fetch-site": "same-origin" });

function patch(id: string, body: unknown, headers: Record<string, string> = {}) {
  return patchCall(
    apiRequest(`http://localhost/api/calls/${encodeURIComponent(id)}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    context(id),
  );
}

function patchIncidentWith(id: string, body: unknown, headers: Record<string, string> = {}) {
  return patchIncident(
    apiRequest(`http://localhost/api/incidents/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
    context(id),
  );
}

async function call(id: string): Promise<CallDetail> {
  const response = await getOne(apiRequest(`http://localhost/api/calls/${encodeURIComponent(id)}`), context(id));
  expect(response.status).toBe(200);
  return callDetailSchema.parse(await response.json());
}

async function incident(id: string) {
  const response = await getIncident(apiRequest(`http://localhost/api/incidents/${id}`), context(id));
  expect(response.status).toBe(200);
  return incidentDetailSchema.parse(await response.json());
}

/** Every stored fact a correction may change: the call row, its history, its corrections, its incident. */
async function snapshot(id: string) {
  const db = await getDb();
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT c.emergency_type, c.severity, c.location, c.latitude, c.longitude, c.status, c.incident_id, c.change_number,
      c.original_emergency_type, c.original_severity, c.original_location,
      i.latitude AS incident_lat, i.longitude AS incident_lon, i.call_count, i.severity AS incident_severity,
      (SELECT count(*) FROM call_status_changes h WHERE h.call_id = c.id) AS statuses,
      (SELECT count(*) FROM call_corrections k WHERE k.call_id = c.id) AS corrections,
      (SELECT count(*) FROM audit_events a WHERE a.target_id = c.conversation_id AND a.action <> 'call.viewed') AS audits
    FROM calls c JOIN incidents i ON i.id = c.incident_id WHERE c.conversation_id = ${id}`;
  return row;
}

async function auditRows(targetId: string, action: string) {
  const db = await getDb();
  return db.$queryRaw<{ actor_name: string; actor_kind: string; before: unknown; after: unknown }[]>`
    SELECT actor_name, actor_kind, before, after FROM audit_events WHERE target_id = ${targetId} AND action = ${action} ORDER BY at`;
}

let dispatcher: SignedInPerson;
beforeAll(async () => {
  dispatcher = await signedIn("dispatcher", "Dana Dispatcher");
});

describe("PATCH /api/calls/{id} corrections", () => {
  it("corrects the location: geocoded again, the call and its incident's centre move, original kept, history and audit name the dispatcher", async () => {
    const id = await postCall(MISSION, nextHour());
    const before = await call(id);
    expect(before).toMatchObject({ location: MISSION.text, latitude: MISSION.lat, longitude: MISSION.lon, corrections: [] });
    expect(before).not.toHaveProperty("original_location");
    const feedBefore = (await snapshot(id)).change_number as bigint;

    const response = await patch(id, { location: MARINA.text, confirm_lower_precision: true }, fromDashboard(dispatcher.cookie));
    expect(response.status).toBe(200);
    const after = callDetailSchema.parse(await response.json());
    expect(after).toMatchObject({ location: MARINA.text, original_location: MISSION.text });
    expect(after.latitude).toBeCloseTo(MARINA.lat, 4);
    expect(after.longitude).toBeCloseTo(MARINA.lon, 4);
    expect(after.corrections).toEqual([
      { field: "location", from: MISSION.text, to: MARINA.text, changed_at: expect.any(String), changed_by: "Dana Dispatcher" },
    ]);
    // Alone in its incident: the incident follows it (centre and location text).
    const moved = await incident(after.incident_id);
    expect(moved.latitude).toBeCloseTo(MARINA.lat, 4);
    expect(moved.longitude).toBeCloseTo(MARINA.lon, 4);
    expect(moved.location).toBe(MARINA.text);
    // A change in the feed, so every dashboard sees it.
    expect((await snapshot(id)).change_number as bigint).toBeGreaterThan(feedBefore);
    const [audit] = await auditRows(id, "call.corrected");
    expect(audit).toMatchObject({
      actor_kind: "user",
      actor_name: "Dana Dispatcher",
      before: { location: MISSION.text },
      after: { location: MARINA.text, incident_id: after.incident_id },
    });
  });

  it("corrects type and severity together with a status move, one history entry per field, and nothing for values already set", async () => {
    const id = await postCall(MISSION, nextHour());
    const response = await patch(id, { emergency_type: "gas_leak", severity: "moderate", status: "dispatched" });
    expect(response.status).toBe(200);
    const body = callDetailSchema.parse(await response.json());
    expect(body).toMatchObject({
      emergency_type: "gas_leak",
      original_emergency_type: "structure_fire",
      severity: "moderate",
      original_severity: "critical",
      status: "dispatched",
    });
    expect(body.corrections.map((entry) => [entry.field, entry.from, entry.to])).toEqual([
      ["emergency_type", "structure_fire", "gas_leak"],
      ["severity", "critical", "moderate"],
    ]);
    expect(body.history.map((entry) => entry.status)).toEqual(["active", "dispatched"]);
    expect((await incident(body.incident_id)).severity).toBe("moderate");

    // The same values again: nothing changes, no history entry, no audit row.
    const again = await snapshot(id);
    expect((await patch(id, { emergency_type: "gas_leak", severity: "moderate" })).status).toBe(200);
    expect(await snapshot(id)).toEqual(again);

    // Back to the agent's value: the original is cleared, the history keeps both corrections.
    const back = callDetailSchema.parse(await (await patch(id, { severity: "critical" })).json());
    expect(back).not.toHaveProperty("original_severity");
    expect(back.corrections.filter((entry) => entry.field === "severity").map((entry) => entry.to)).toEqual(["moderate", "critical"]);
  });

  it.each([
    [{}, "Invalid parameter"],
    [[], "Invalid parameter"],
    [{ summary: "ignored field only" }, "Invalid parameter"],
    [{ emergency_type: "alien_invasion" }, "Invalid emergency_type"],
    [{ emergency_type: "" }, "Invalid emergency_type"],
    [{ severity: "extreme" }, "Invalid severity"],
    [{ severity: null }, "Invalid severity"],
    [{ location: "" }, "Invalid location"],
    [{ location: "   " }, "Invalid location"],
    [{ location: "x".repeat(501) }, "Invalid location"],
    [{ location: 42 }, "Invalid location"],
    [{ severity: "high", status: "closed" }, "Invalid status"],
    [{ location: "Xyzzy Plugh, Nowhere Land" }, "Unknown location"],
  ])("answers 400 for %j and changes nothing", async (body, label) => {
    const id = await postCall(MISSION, nextHour());
    const before = await snapshot(id);
    const response = await patch(id, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: label, error_code: "INVALID_PARAMETER", message: expect.any(String) });
    expect(await snapshot(id)).toEqual(before);
  });

  it("a refused status move takes the corrections of the same request back (409, nothing changed)", async () => {
    const id = await postCall(MISSION, nextHour());
    expect((await patch(id, { status: "resolved" })).status).toBe(200);
    const before = await snapshot(id);
    const response = await patch(id, { severity: "moderate", location: MARINA.text, confirm_lower_precision: true, status: "active" });
    expect(response.status).toBe(409);
    expect(await snapshot(id)).toEqual(before);
  });

  it("a geocoder that cannot answer is 500 GEOCODING_ERROR, and nothing changes", async () => {
    const down = await startStandInServer((_, response) => {
      response.writeHead(503).end("down");
    });
    try {
      process.env.GEOCODER_URL = down.url;
      resetConfigForTests();
      const id = await postCall(MISSION, nextHour());
      const before = await snapshot(id);
      // Neither the hosted geocoder (down) nor the gazetteer knows it.
      const response = await patch(id, { location: "Xyzzy Plugh, Nowhere Land" });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ error_code: "GEOCODING_ERROR" });
      expect(await snapshot(id)).toEqual(before);
    } finally {
      delete process.env.GEOCODER_URL;
      resetConfigForTests();
      await down.close();
    }
  });

  it("a viewer is refused, and a trainer may correct training calls only (403, nothing changed)", async () => {
    const id = await postCall(MISSION, nextHour());
    const before = await snapshot(id);
    const viewer = await signedIn("viewer");
    const trainer = await signedIn("trainer");
    for (const person of [viewer, trainer]) {
      const response = await patch(id, { severity: "moderate" }, fromDashboard(person.cookie));
      expect(response.status).toBe(403);
      expect((await response.json()).error_code).toBe("FORBIDDEN");
    }
    expect(await snapshot(id)).toEqual(before);
  });

  it("a redelivery of the conversation keeps the dispatcher's correction; the agent's new word becomes the original", async () => {
    const at = nextHour();
    const id = await postCall(MISSION, at);
    expect((await patch(id, { location: MARINA.text, confirm_lower_precision: true, severity: "moderate" })).status).toBe(200);
    const event = specCallEvent(id, { location: "Somewhere Else, San Francisco", eventTimestamp: at });
    // A signed redelivery: an unsigned one changes nothing at all (docs/webhook.md, "Unsigned deliveries").
    setEnv({ VOICEAGENT_WEBHOOK_SECRET: REDELIVERY_SECRET });
    try {
      expect((await webhook(webhookRequest(event, { secret: REDELIVERY_SECRET }), undefined)).status).toBe(200);
    } finally {
      setEnv({ VOICEAGENT_WEBHOOK_SECRET: undefined });
    }
    const body = await call(id);
    expect(body).toMatchObject({
      location: MARINA.text,
      original_location: "Somewhere Else, San Francisco",
      severity: "moderate",
      original_severity: "critical",
    });
    expect(body.latitude).toBeCloseTo(MARINA.lat, 4);
  });
});

describe("regrouping a corrected call (docs/incidents.md)", () => {
  it("a call corrected away from its incident's other calls gets an incident of its own; corrected back, it rejoins", async () => {
    const at = nextHour();
    const first = await postCall(MISSION, at);
    const second = await postCall(MISSION, at + 60);
    const shared = (await call(first)).incident_id;
    expect((await call(second)).incident_id).toBe(shared);

    const away = callDetailSchema.parse(await (await patch(second, { location: MARINA.text, confirm_lower_precision: true })).json());
    expect(away.incident_id).not.toBe(shared);
    const left = await incident(shared);
    expect(left.call_count).toBe(1);
    expect(left.latitude).toBeCloseTo(MISSION.lat, 4);
    const own = await incident(away.incident_id);
    expect(own).toMatchObject({ call_count: 1, location: MARINA.text, status: "active" });
    expect(own.latitude).toBeCloseTo(MARINA.lat, 4);

    const back = callDetailSchema.parse(await (await patch(second, { location: MISSION.text, confirm_lower_precision: true })).json());
    expect(back.incident_id).toBe(shared);
    expect((await incident(shared)).call_count).toBe(2);
    // Its own incident, left without calls, is gone.
    const gone = await getIncident(apiRequest(`http://localhost/api/incidents/${away.incident_id}`), context(away.incident_id));
    expect(gone.status).toBe(404);
  });

  it("a call corrected to another type leaves an incident of the old type", async () => {
    const at = nextHour();
    const first = await postCall(MISSION, at);
    const second = await postCall(MISSION, at + 60);
    const shared = (await call(first)).incident_id;
    const moved = callDetailSchema.parse(await (await patch(second, { emergency_type: "medical_emergency" })).json());
    expect(moved.incident_id).not.toBe(shared);
    expect((await incident(moved.incident_id)).emergency_type).toBe("medical_emergency");
    expect((await incident(shared)).emergency_type).toBe("structure_fire");
  });

  it("a call of an incident a dispatcher merged stays in it when corrected; the centre follows", async () => {
    const at = nextHour();
    const first = await postCall(MISSION, at);
    const other = await postCall(MARINA, at + 60);
    const [target, source] = [(await call(first)).incident_id, (await call(other)).incident_id];
    expect(target).not.toBe(source);
    const merged = await merge(
      apiRequest(`http://localhost/api/incidents/${target}/merge`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ other_id: source }),
      }),
      context(target),
    );
    expect(merged.status).toBe(200);
    // Marina's caller corrected to the Mission: still in the merged incident, whose centre moves.
    const corrected = callDetailSchema.parse(await (await patch(other, { location: MISSION.text, confirm_lower_precision: true })).json());
    expect(corrected.incident_id).toBe(target);
    const after = await incident(target);
    expect(after.call_count).toBe(2);
    expect(after.latitude).toBeCloseTo(MISSION.lat, 4);
  });
});

describe("PATCH /api/incidents/{id} corrections", () => {
  it("corrects the type and severity of every call of the incident, which keeps them together", async () => {
    const at = nextHour();
    const first = await postCall(MISSION, at);
    const second = await postCall(MISSION, at + 60);
    const id = (await call(first)).incident_id;
    const response = await patchIncidentWith(
      id,
      { emergency_type: "gas_leak", severity: "high", ...withMoveDetails("dispatched") },
      fromDashboard(dispatcher.cookie),
    );
    expect(response.status).toBe(200);
    const body = incidentDetailSchema.parse(await response.json());
    expect(body).toMatchObject({ emergency_type: "gas_leak", severity: "high", status: "dispatched", call_count: 2 });
    for (const callId of [first, second]) {
      const detail = await call(callId);
      expect(detail).toMatchObject({
        emergency_type: "gas_leak",
        original_emergency_type: "structure_fire",
        severity: "high",
        original_severity: "critical",
        status: "dispatched",
        incident_id: id,
      });
      expect(detail.corrections.map((entry) => entry.changed_by)).toEqual(["Dana Dispatcher", "Dana Dispatcher"]);
    }
    expect(await auditRows(id, "incident.corrected")).toEqual([
      {
        actor_kind: "user",
        actor_name: "Dana Dispatcher",
        before: { emergency_type: "structure_fire", severity: "critical" },
        after: { emergency_type: "gas_leak", severity: "high", calls_corrected: 2 },
      },
    ]);
  });

  it("refuses a location (a call's own) and bad values with 400, nothing changed", async () => {
    const first = await postCall(MISSION, nextHour());
    const id = (await call(first)).incident_id;
    const before = await snapshot(first);
    for (const body of [{}, { location: MARINA.text }, { severity: "extreme" }, { emergency_type: "alien" }]) {
      const response = await patchIncidentWith(id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect(await snapshot(first)).toEqual(before);
  });
});

describe("1,000 concurrent corrections and status changes on 100 calls", () => {
  it("leaves every call consistent with its incident (counts, severity and centre recomputed in SQL), without a deadlock or a 5xx", async () => {
    const at = nextHour();
    const places = [
      MISSION,
      MARINA,
      { text: "Santa Monica", lat: 34.01949, lon: -118.49138 },
      { text: "Malibu", lat: 34.0259, lon: -118.7798 },
      { text: "Pacific Palisades", lat: 34.0481, lon: -118.5265 },
    ];
    // 100 calls over five places, so they start grouped in a few shared incidents.
    const ids: string[] = [];
    for (let index = 0; index < 100; index++) ids.push(await postCall(places[index % places.length], at + index));
    const statuses = ["dispatched", "enroute", "resolved", "failed"];
    const types = EMERGENCY_TYPES.slice(0, 3);
    const bodies = Array.from({ length: 1_000 }, (_, index) => {
      const pick = <T>(values: readonly T[]) => values[randomInt(values.length)];
      const body: Record<string, string> = {};
      if (randomInt(3) === 0) Object.assign(body, { location: pick(places).text, confirm_lower_precision: true });
      if (randomInt(3) === 0) body.severity = pick(SEVERITIES);
      if (randomInt(4) === 0) body.emergency_type = pick(types);
      if (Object.keys(body).length === 0 || randomInt(3) === 0) Object.assign(body, withMoveDetails(pick(statuses)));
      return { id: ids[index % ids.length], body };
    });

    // From ten dispatcher workstations: the calls budget is per client (1,000 a minute).
    const answers = await Promise.all(
      bodies.map(({ id, body }, index) =>
        patch(id, body, { "x-forwarded-for": `10.28.0.${(index % 10) + 1}` }).then((response) => response.status),
      ),
    );
    // 409: a status move the workflow no longer allows (the call moved on meanwhile).
    expect(answers.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    expect(answers.filter((status) => status === 200).length).toBeGreaterThan(500);

    const db = await getDb();
    const inconsistent = await db.$queryRaw<unknown[]>`
      WITH expected AS (
        SELECT c.incident_id AS id, count(*)::int AS call_count,
          count(*) FILTER (WHERE c.centre)::int AS located_count,
          (ARRAY['moderate', 'high', 'critical'])[max(CASE c.severity WHEN 'critical' THEN 3 WHEN 'high' THEN 2 ELSE 1 END)] AS severity,
          avg(c.latitude) FILTER (WHERE c.centre) AS latitude,
          avg(c.longitude) FILTER (WHERE c.centre) AS longitude,
          min(c.occurred_at) AS first_call_at, max(c.occurred_at) AS last_call_at
        FROM (
          -- The incident's point: the centre of its most precise located calls.
          SELECT k.*, k.latitude IS NOT NULL AND k.longitude IS NOT NULL
            AND k.location_precision IS NOT DISTINCT FROM best_location_precision(array_agg(k.location_precision)
              FILTER (WHERE k.latitude IS NOT NULL AND k.longitude IS NOT NULL) OVER (PARTITION BY k.incident_id)) AS centre
          FROM calls k
          WHERE k.incident_id IN (SELECT incident_id FROM calls WHERE conversation_id = ANY(${ids}))
        ) c
        GROUP BY c.incident_id
      )
      SELECT e.*, i.call_count AS stored_count, i.located_count AS stored_located, i.severity AS stored_severity,
        i.latitude AS stored_latitude, i.longitude AS stored_longitude
      FROM expected e LEFT JOIN incidents i ON i.id = e.id
      WHERE i.id IS NULL OR i.call_count <> e.call_count OR i.located_count <> e.located_count
        OR i.severity <> e.severity OR i.first_call_at <> e.first_call_at OR i.last_call_at <> e.last_call_at
        OR abs(i.latitude - e.latitude) > 1e-9 OR abs(i.longitude - e.longitude) > 1e-9`;
    expect(inconsistent).toEqual([]);

    // Every call's row agrees with its corrections: the last correction of each field is its value,
    // and its status with its history's last entry.
    const disagreeing = await db.$queryRaw<unknown[]>`
      SELECT c.conversation_id FROM calls c
      WHERE c.conversation_id = ANY(${ids}) AND (
        c.status <> (SELECT h.status FROM call_status_changes h WHERE h.call_id = c.id ORDER BY h.changed_at DESC, h.id DESC LIMIT 1)
        OR c.location <> coalesce((SELECT k.to_value FROM call_corrections k WHERE k.call_id = c.id AND k.field = 'location'
          ORDER BY k.id DESC LIMIT 1), c.location)
        OR c.severity <> coalesce((SELECT k.to_value FROM call_corrections k WHERE k.call_id = c.id AND k.field = 'severity'
          ORDER BY k.id DESC LIMIT 1), c.severity))`;
    expect(disagreeing).toEqual([]);
    // No empty incident left behind.
    const [{ empty }] = await db.$queryRaw<{ empty: bigint }[]>`
      SELECT count(*) AS empty FROM incidents i WHERE NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id)`;
    expect(empty).toBe(0n);
  }, 300_000);
});
