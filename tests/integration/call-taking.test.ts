import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getCall, PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { POST as takeCallRoute } from "@/app/api/calls/route";
import { GET as eidoRoute } from "@/app/api/incidents/[id]/eido/route";
import { GET as getIncident } from "@/app/api/incidents/[id]/route";
import { GET as duplicatesRoute } from "@/app/api/locations/duplicates/route";
import { GET as locationsRoute } from "@/app/api/locations/route";
import { GET as reportRoute } from "@/app/api/reports/intervals/route";
import { POST as positionRoute } from "@/app/api/units/[id]/position/route";
import { POST as createUnitRoute } from "@/app/api/units/route";
import { type LocationCandidates, type LocationDuplicates, locationCandidatesSchema, locationDuplicatesSchema } from "@/lib/call-taking/schema";
import { type CallDetail, callDetailSchema } from "@/lib/calls/schema";
import { getDb } from "@/lib/db/client";
import type { Eido } from "@/lib/eido/build";
import type { IntervalsReport } from "@/lib/reports/schema";
import { createExercise } from "@/lib/exercises/create";
import { parseCreateExercise } from "@/lib/exercises/schema";
import { importGisLayer } from "@/lib/geocoding/centre/import";
import { readFeedHead } from "@/lib/feed";
import { readWindow } from "@/lib/subscriptions/events";
import { apiRequest, testAdmin } from "../support/auth";
import { danglingReferences, validateEido, validateNenaEido } from "../support/eido-schema";
import { withoutEnv } from "../support/env";
import { signedIn, type SignedInPerson } from "../support/people";

/**
 * A call a person takes (docs/calls.md, "A call a person takes"): POST /api/calls through the
 * calls' one door, GET /api/locations' candidates on the synthetic county's GIS data
 * (tests/fixtures/gis), GET /api/locations/duplicates, on real PostgreSQL (or PGlite), through the
 * route handlers a browser's requests reach.
 */
const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");
withoutEnv("GEOCODER_URL");

let dispatcher: SignedInPerson;
let trainer: SignedInPerson;
beforeAll(async () => {
  for (const [format, name] of [["csv", "address-points.csv"], ["geojson", "centrelines.geojson"]] as const) {
    await importGisLayer({ format, chunks: createReadStream(path.join(FIXTURES, name)) as AsyncIterable<Uint8Array>, sourceName: name });
  }
  [dispatcher, trainer] = await Promise.all([signedIn("dispatcher", "Dana Dispatcher"), signedIn("trainer", "Tom Trainer")]);
}, 120_000);

const fromDashboard = (person: SignedInPerson) => ({ cookie: person.cookie, "sec-fetch-site": "same-origin" });

async function candidates(q: string, limit?: number): Promise<LocationCandidates> {
  const url = new URL("http://localhost/api/locations");
  url.searchParams.set("q", q);
  if (limit) url.searchParams.set("limit", String(limit));
  const response = await locationsRoute(apiRequest(url), undefined);
  expect(response.status).toBe(200);
  return locationCandidatesSchema.parse(await response.json());
}

function take(body: unknown, person: SignedInPerson = dispatcher) {
  return takeCallRoute(
    new Request("http://localhost/api/calls", { method: "POST", headers: { "content-type": "application/json", ...fromDashboard(person) }, body: JSON.stringify(body) }),
    undefined,
  );
}

async function taken(body: Record<string, unknown>, status = 201): Promise<CallDetail> {
  const response = await take(body);
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(status);
  return callDetailSchema.parse(answer);
}

const context = (id: string) => ({ params: Promise.resolve({ id }) });

/** What a refused request must leave as it was: the calls, their history and the audit trail. */
async function counts() {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ calls: number; history: number; audit: number }[]>`
    SELECT (SELECT count(*)::int FROM calls) AS calls, (SELECT count(*)::int FROM call_status_changes) AS history,
      (SELECT count(*)::int FROM audit_events WHERE action = 'call.taken') AS audit`;
  return row;
}

describe("address candidates while typing (GET /api/locations)", () => {
  it("answers the GIS address point first for a spoken address, and while its last word is typed", async () => {
    for (const q of ["372 north eighth street", "372 north eigh", "372 N 8th St, Springf"]) {
      const { candidates: found } = await candidates(q);
      expect(found[0], q).toMatchObject({ precision: "address_point", source: "centre_gis", label: "372 N 8th St, Springfield" });
      expect(found[0].latitude).toBeCloseTo(39.7931268, 6);
      expect(found[0].longitude).toBeCloseTo(-89.6375895, 6);
    }
    // Every community's 372 N 8th St is a candidate: the call-taker chooses.
    const all = await candidates("372 north eighth street", 20);
    expect(all.candidates.map((candidate) => candidate.label)).toEqual(expect.arrayContaining(["94-372 N 8th St, Shelbyville"]));
    expect((await candidates("372 north eighth street", 2)).candidates).toHaveLength(2);
  });

  it("answers crossings and streets, then the gazetteer when the GIS has nothing, and refuses a query too short", async () => {
    expect((await candidates("cedar and fourth")).candidates[0]).toMatchObject({ precision: "intersection", label: "W Cedar Pike & S 4th St, Springfield" });
    expect((await candidates("hillc")).candidates.map((candidate) => candidate.precision)).toEqual(["street", "street"]);
    const elsewhere = await candidates("Mission District, San Francisco");
    expect(elsewhere.candidates).toHaveLength(1);
    expect(elsewhere.candidates[0]).toMatchObject({ source: "gazetteer", precision: "locality" });
    const response = await locationsRoute(apiRequest("http://localhost/api/locations?q=37"), undefined);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: "INVALID_PARAMETER", error: "Invalid q" });
  });
});

describe("a call a person takes (POST /api/calls)", () => {
  it("is stored once through the door, as the person's, audited, announced, its EIDO valid with the person as agent", async () => {
    const db = await getDb();
    const cursor = await readFeedHead(db);
    const [chosen] = (await candidates("372 north eighth street")).candidates;
    const conversationId = randomUUID();
    const formOpenedAt = Math.floor(Date.now() / 1000) - 95;
    const body = {
      conversation_id: conversationId,
      callback_number: "(217) 555-0142",
      caller_name: "Pat Caller",
      location: "372 north eighth street",
      candidate_id: chosen.id,
      emergency_type: "structure_fire",
      severity: "critical",
      narrative: "Kitchen fire, smoke on the second floor, everyone out.",
      form_opened_at: formOpenedAt,
    };
    const call = await taken(body);
    expect(call).toMatchObject({
      conversation_id: conversationId,
      platform: "call_taker",
      agent_id: `user:${dispatcher.user.id}`,
      caller_phone: "+12175550142",
      caller_name: "Pat Caller",
      location: "372 north eighth street",
      location_matched: "372 N 8th St, Springfield",
      location_precision: "address_point",
      location_source: "centre_gis",
      latitude: chosen.latitude,
      longitude: chosen.longitude,
      emergency_type: "structure_fire",
      severity: "critical",
      status: "active",
      simulation: false,
      summary: body.narrative,
      // The intervals report counts from the form's opening (call processing, NFPA 1225).
      timestamp: formOpenedAt,
    });
    expect(call.history).toEqual([expect.objectContaining({ status: "active", changed_by: "Dana Dispatcher" })]);

    // A retried save: the same call, 200, nothing written twice.
    const before = await counts();
    expect(await taken(body, 200)).toEqual(call);
    expect(await counts()).toEqual(before);
    expect(await db.call.count({ where: { conversationId } })).toBe(1);
    const audited = await db.$queryRaw<{ actor_id: string; after: Record<string, unknown> }[]>`
      SELECT actor_id, after FROM audit_events WHERE action = 'call.taken' AND target_id = ${conversationId}`;
    expect(audited).toEqual([{ actor_id: dispatcher.user.id, after: expect.objectContaining({ incident_id: call.incident_id, joined: false, location_precision: "address_point" }) }]);

    // Announced as every call: the change feed and the outbound call.created event.
    const { events } = await readWindow(db, cursor, 1_000_000);
    const mine = events.filter((event) => "call" in event.data && event.data.call?.conversation_id === conversationId);
    expect(mine.map((event) => event.type)).toContain("call.created");

    // Its EIDO validates against NENA's schema and names the person as the call's agent, taking calls.
    const eidoResponse = await eidoRoute(apiRequest(`http://localhost/api/incidents/${call.incident_id}/eido`), context(call.incident_id));
    expect(eidoResponse.status).toBe(200);
    const eido = (await eidoResponse.json()) as Eido;
    expect(validateEido(eido) ? [] : validateEido.errors).toEqual([]);
    expect(validateNenaEido(eido) ? [] : validateNenaEido.errors).toEqual([]);
    expect(danglingReferences(eido)).toEqual([]);
    const agent = `user.${dispatcher.user.id}@mayday.invalid`;
    const callComponent = eido.callComponent.find((component) => component.$id === call.tracking_id)!;
    expect(callComponent.agentReference).toEqual([{ $ref: agent }]);
    expect(callComponent.localCallType).toBe("call-taker");
    expect(eido.agentComponent).toEqual(expect.arrayContaining([expect.objectContaining({ $id: agent, agentRoleRegistryText: ["Call Taking", "Dispatching"] })]));

    // Dispatched 95 s or more after the form opened: the report counts from the opening.
    const dispatched = await patchCall(
      new Request(`http://localhost/api/calls/${conversationId}`, { method: "PATCH", headers: { "content-type": "application/json", ...fromDashboard(dispatcher) }, body: JSON.stringify({ status: "dispatched" }) }),
      context(conversationId),
    );
    expect(dispatched.status).toBe(200);
    const from = new Date((formOpenedAt - 1) * 1000).toISOString();
    const report = await reportRoute(apiRequest(`http://localhost/api/reports/intervals?from=${from}`), undefined);
    const figures = (await report.json()) as { overall: { calls: number; max_seconds: number | null } };
    expect(report.status, JSON.stringify(figures)).toBe(200);
    expect(figures.overall.max_seconds).toBeGreaterThanOrEqual(95);
  });

  it("joins the open incident the person chose among the location's possible duplicates", async () => {
    const [first] = (await candidates("125 S 2nd St, Springfield")).candidates;
    const patient = await taken({ location: "125 S 2nd St, Springfield", candidate_id: first.id, emergency_type: "medical_emergency", severity: "high", narrative: "Fall, hip pain" });
    // A neighbour's call about a person's emergency: never joined by distance, a possible duplicate.
    const [neighbour] = (await candidates("173 S 2nd St, Springfield")).candidates;
    expect(neighbour.precision).toBe("address_point");
    const url = `http://localhost/api/locations/duplicates?latitude=${neighbour.latitude}&longitude=${neighbour.longitude}&emergency_type=medical_emergency`;
    const found = locationDuplicatesSchema.parse(await (await duplicatesRoute(apiRequest(url), undefined)).json()) as LocationDuplicates;
    expect(found.duplicates[0]).toMatchObject({ incident_id: patient.incident_id, emergency_type: "medical_emergency", call_count: 1 });
    // None of another type, none of training's.
    const otherType = locationDuplicatesSchema.parse(await (await duplicatesRoute(apiRequest(url.replace("medical_emergency", "gas_leak")), undefined)).json());
    expect(otherType.duplicates.map((duplicate) => duplicate.incident_id)).not.toContain(patient.incident_id);

    const joined = await taken({ location: "173 S 2nd St, Springfield", candidate_id: neighbour.id, emergency_type: "medical_emergency", severity: "high", incident_id: patient.incident_id });
    expect(joined.incident_id).toBe(patient.incident_id);
    const incident = (await (await getIncident(apiRequest(`http://localhost/api/incidents/${patient.incident_id}`), context(patient.incident_id))).json()) as { call_count: number };
    expect(incident.call_count).toBe(2);
    // Left to the grouping rule, the same call opens its own incident.
    const own = await taken({ location: "173 S 2nd St, Springfield", candidate_id: neighbour.id, emergency_type: "medical_emergency", severity: "high" });
    expect(own.incident_id).not.toBe(patient.incident_id);
  });

  it("geocodes typed words as every call, and keeps a call no geocoder places, without a point", async () => {
    const typed = await taken({ location: "372 N 8th St, Springfield", emergency_type: "gas_leak", severity: "moderate" });
    expect(typed).toMatchObject({ location_precision: "address_point", location_matched: "372 N 8th St, Springfield" });
    const nowhere = await taken({ location: "the old mill past the river bend", emergency_type: "gas_leak", severity: "moderate" });
    expect(nowhere).toMatchObject({ latitude: null, longitude: null, location_precision: null });
  });

  it("refuses bad input with a 4xx in the calls' error format, writing nothing", async () => {
    const good = { location: "372 N 8th St, Springfield", emergency_type: "structure_fire", severity: "critical" };
    const closed = await taken({ ...good, emergency_type: "flooding" });
    const resolved = await patchCall(
      new Request(`http://localhost/api/calls/${closed.conversation_id}`, { method: "PATCH", headers: { "content-type": "application/json", ...fromDashboard(dispatcher) }, body: JSON.stringify({ status: "resolved" }) }),
      context(closed.conversation_id),
    );
    expect(resolved.status).toBe(200);
    const before = await counts();
    const refused: [unknown, number, string, string?][] = [
      [{ ...good, location: "" }, 400, "INVALID_PARAMETER", "Invalid location"],
      [{ ...good, emergency_type: "fire" }, 400, "INVALID_PARAMETER", "Invalid emergency_type"],
      [{ ...good, severity: "urgent" }, 400, "INVALID_PARAMETER", "Invalid severity"],
      [{ ...good, conversation_id: "not-a-uuid" }, 400, "INVALID_PARAMETER", "Invalid conversation_id"],
      [{ ...good, form_opened_at: Date.now() / 1000 + 3600 }, 400, "INVALID_PARAMETER", "Invalid form_opened_at"],
      [{ ...good, form_opened_at: Date.now() / 1000 - 3 * 86_400 }, 400, "INVALID_PARAMETER", "Invalid form_opened_at"],
      [{ ...good, narrative: "x".repeat(20_001) }, 400, "INVALID_PARAMETER", "Invalid narrative"],
      [[good], 400, "INVALID_PARAMETER"],
      [{ ...good, candidate_id: "centre_gis:address_point:0.0000000,0.0000000" }, 409, "CONFLICT"],
      [{ ...good, incident_id: randomUUID() }, 404, "NOT_FOUND"],
      [{ ...good, incident_id: closed.incident_id }, 409, "CONFLICT"],
      [{ ...good, exercise_id: randomUUID() }, 404, "NOT_FOUND"],
    ];
    for (const [body, status, code, label] of refused) {
      const response = await take(body);
      const answer = (await response.json()) as { error: string; error_code: string; message: string; timestamp: string };
      expect(response.status, JSON.stringify(answer)).toBe(status);
      expect(answer).toMatchObject({ error_code: code, message: expect.any(String), timestamp: expect.any(String) });
      if (label) expect(answer.error).toBe(label);
    }
    // A trainer takes training calls only.
    const forbidden = await take(good, trainer);
    expect(forbidden.status).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it("lets a trainer take an exercise's calls and join its incidents, never a real one's", async () => {
    const exercise = await createExercise(parseCreateExercise({ scenario: "nashville_tornado", num_calls: 5, duration_minutes: 60, seed: 5 }), testAdmin);
    const takeAsTrainer = async (body: Record<string, unknown>) => {
      const response = await take(body, trainer);
      return { status: response.status, body: (await response.json()) as CallDetail };
    };
    const training = await takeAsTrainer({ location: "372 N 8th St, Springfield", emergency_type: "trapped_person", severity: "critical", exercise_id: exercise.id });
    expect(training.status).toBe(201);
    expect(training.body).toMatchObject({ simulation: true, exercise_id: exercise.id, table_name: "exercise-calls", platform: "call_taker", agent_id: `user:${trainer.user.id}` });
    const joined = await takeAsTrainer({ location: "372 N 8th St, Springfield", emergency_type: "trapped_person", severity: "high", incident_id: training.body.incident_id });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ incident_id: training.body.incident_id, exercise_id: exercise.id, simulation: true });
    const real = await taken({ location: "372 N 8th St, Springfield", emergency_type: "trapped_person", severity: "critical" });
    const before = await counts();
    expect((await takeAsTrainer({ location: "372 N 8th St, Springfield", emergency_type: "trapped_person", severity: "critical", incident_id: real.incident_id })).status).toBe(403);
    // A dispatcher cannot put an exercise's call in a real incident either.
    expect((await take({ location: "372 N 8th St, Springfield", emergency_type: "trapped_person", severity: "critical", incident_id: real.incident_id, exercise_id: exercise.id })).status).toBe(409);
    expect(await counts()).toEqual(before);
  });

  it("reads the call back as GET /api/calls/{id} does", async () => {
    const call = await taken({ location: "cedar and fourth", emergency_type: "vehicle_accident", severity: "high", callback_number: null, caller_name: "" });
    expect(call).toMatchObject({ location_precision: "intersection" });
    expect(call.caller_phone).toBeUndefined();
    expect(call.caller_name).toBeUndefined();
    const read = await getCall(apiRequest(`http://localhost/api/calls/${call.conversation_id}`), context(call.conversation_id));
    expect(callDetailSchema.parse(await read.json())).toEqual(call);
  });
});

describe("an incident a unit reports itself (POST /api/calls with unit_id)", () => {
  const asAdmin = (url: string, body: unknown) =>
    apiRequest(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  async function unitAt(callSign: string, position?: { latitude: number; longitude: number }): Promise<string> {
    const created = await createUnitRoute(asAdmin("http://localhost/api/units", { call_sign: callSign, type: "engine", station: "Station 4" }), undefined);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    if (position) expect((await positionRoute(asAdmin(`http://localhost/api/units/${id}/position`, position), context(id))).status).toBe(200);
    return id;
  }

  const incidentUnits = async (incidentId: string) => {
    const db = await getDb();
    return db.$queryRaw<{ unit_id: string; state: string; unit_initiated: boolean; cleared: boolean }[]>`
      SELECT a.unit_id, u.state, a.unit_initiated, a.cleared_at IS NOT NULL AS cleared
      FROM unit_assignments a JOIN units u ON u.id = a.unit_id WHERE a.incident_id = ${incidentId}`;
  };

  it("opens an incident at the unit's position with the unit assigned and on scene; its turnout is 0 and its travel absent, and the report says why", async () => {
    const startedAt = new Date(Date.now() - 1000).toISOString();
    const [near] = (await candidates("372 north eighth street")).candidates;
    const engine = await unitAt("Engine 41", { latitude: near.latitude, longitude: near.longitude });
    const call = await taken({ unit_id: engine, emergency_type: "vehicle_accident", severity: "high", narrative: "Engine 41 came upon a two-car collision" });
    expect(call).toMatchObject({
      platform: "call_taker",
      location: `Engine 41's position, ${near.latitude.toFixed(5)}, ${near.longitude.toFixed(5)}`,
      location_source: "unit",
      latitude: near.latitude,
      longitude: near.longitude,
    });
    expect(await incidentUnits(call.incident_id)).toEqual([{ unit_id: engine, state: "on_scene", unit_initiated: true, cleared: false }]);
    const incident = (await (await getIncident(apiRequest(`http://localhost/api/incidents/${call.incident_id}`), context(call.incident_id))).json()) as { status: string; call_count: number };
    // Its own incident (never grouped into another), and dispatched: a unit is on it.
    expect(incident).toMatchObject({ status: "dispatched", call_count: 1 });

    // A location typed in the same form places it there instead, the unit still on scene.
    const medic = await unitAt("Medic 42");
    const [typed] = (await candidates("125 S 2nd St, Springfield")).candidates;
    const atTyped = await taken({ unit_id: medic, location: "125 S 2nd St, Springfield", candidate_id: typed.id, emergency_type: "medical_emergency", severity: "high" });
    expect(atTyped).toMatchObject({ location_matched: typed.label, location_source: "centre_gis" });
    expect(await incidentUnits(atTyped.incident_id)).toEqual([{ unit_id: medic, state: "on_scene", unit_initiated: true, cleared: false }]);

    const report = await reportRoute(apiRequest(`http://localhost/api/reports/intervals?from=${startedAt}`), undefined);
    const { units } = (await report.json()) as IntervalsReport;
    const figures = units.by_unit.find((row) => row.unit_id === engine)!;
    expect(figures).toMatchObject({
      assignments: 1,
      unit_initiated: 1,
      turnout: { measured: 1, p50_seconds: 0, within_target: 1 },
      travel: { measured: 0, p50_seconds: null },
      response: { measured: 1, p50_seconds: 0 },
    });
    expect(units.overall.unit_initiated).toBe(2);
  });

  it("refuses a unit without a position when no location is typed, a busy unit and a call without location or unit, writing nothing", async () => {
    const nowhere = await unitAt("Engine 43");
    const busy = await unitAt("Engine 44", { latitude: 39.8, longitude: -89.65 });
    await taken({ unit_id: busy, emergency_type: "structure_fire", severity: "critical" });
    const before = await counts();
    const refused: [unknown, number, string, string][] = [
      [{ unit_id: nowhere, emergency_type: "structure_fire", severity: "critical" }, 409, "CONFLICT", "Unit position unknown"],
      [{ unit_id: busy, location: "372 N 8th St, Springfield", emergency_type: "gas_leak", severity: "high" }, 409, "UNIT_UNAVAILABLE", "Unit unavailable"],
      [{ unit_id: randomUUID(), location: "372 N 8th St, Springfield", emergency_type: "gas_leak", severity: "high" }, 404, "NOT_FOUND", "Not found"],
      [{ emergency_type: "gas_leak", severity: "high" }, 400, "INVALID_PARAMETER", "Invalid location"],
    ];
    for (const [body, status, code, label] of refused) {
      const response = await take(body);
      const answer = (await response.json()) as { error: string; error_code: string };
      expect(response.status, JSON.stringify(answer)).toBe(status);
      expect(answer).toMatchObject({ error_code: code, error: label });
    }
    expect(await counts()).toEqual(before);
  });
});
