import { randomInt } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getIncident } from "@/app/api/incidents/[id]/route";
import { POST as dismissDuplicate } from "@/app/api/incidents/[id]/dismiss-duplicate/route";
import { GET as mergeCandidatesRoute } from "@/app/api/incidents/[id]/merge-candidates/route";
import { POST as merge } from "@/app/api/incidents/[id]/merge/route";
import { GET as listIncidents } from "@/app/api/incidents/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { importGisLayer } from "@/lib/geocoding/centre/import";
import { metresBetween } from "@/lib/incidents/grouping";
import { incidentDetailSchema, incidentListSchema } from "@/lib/incidents/schema";
import { readChanges } from "@/lib/board/feed-pages";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest } from "../support/auth";
import { webhookRequest } from "../support/webhook-request";

/**
 * Grouping decides only when sure (docs/incidents.md, "Grouping" and "Possible duplicates"), on the
 * synthetic county's GIS data (tests/fixtures/gis), every call through the signed webhook: two
 * house numbers of a person's emergency are two incidents, each marked as a possible duplicate of
 * the other; one fire seen from three houses is one incident; a marked pair is merged, or
 * dismissed, in one request.
 */
const SECRET = "possible-duplicates-secret";
const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");
const originalSecret = process.env.VOICEAGENT_WEBHOOK_SECRET;
beforeAll(async () => {
  process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
  resetConfigForTests();
  for (const [format, name] of [["csv", "address-points.csv"], ["geojson", "centrelines.geojson"]] as const) {
    await importGisLayer({ format, chunks: createReadStream(path.join(FIXTURES, name)) as AsyncIterable<Uint8Array>, sourceName: name });
  }
}, 120_000);
afterAll(() => {
  if (originalSecret === undefined) delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  else process.env.VOICEAGENT_WEBHOOK_SECRET = originalSecret;
  resetConfigForTests();
});

const runId = randomInt(1_000_000);
let counter = 0;
// Each case a day of its own: no grouping window reaches another case's calls.
let day = 0;

interface Reported {
  location: string;
  type: string;
  severity?: string;
  phone?: string;
}

/** One signed post-call event per report, 4 minutes apart; the stored calls with their incidents. */
async function report(...reports: Reported[]) {
  const start = 1_767_225_600 + ++day * 86_400;
  const ids: string[] = [];
  for (const [index, { location, type, severity, phone }] of reports.entries()) {
    const id = `conv_duplicates_${runId}_${++counter}`;
    const event = specCallEvent(id, { location, eventTimestamp: start + index * 240 });
    const data = event.data as typeof event.data & { metadata: Record<string, unknown> };
    data.analysis.data_collection_results.emergency_type.value = type;
    data.analysis.data_collection_results.severity.value = severity ?? "Critical";
    if (phone) data.metadata.phone_call = { external_number: phone };
    const response = await webhook(webhookRequest(event, { secret: SECRET }), undefined);
    expect(response.status).toBe(200);
    ids.push(id);
  }
  const db = await getDb();
  return Promise.all(ids.map((conversationId) => db.call.findUniqueOrThrow({ where: { conversationId }, include: { incident: true } })));
}

async function detail(id: string) {
  const response = await getIncident(apiRequest(`http://localhost/api/incidents/${id}`), { params: Promise.resolve({ id }) });
  expect(response.status).toBe(200);
  return incidentDetailSchema.parse(await response.json());
}

const post = (handler: typeof merge, id: string, path: string, body: unknown) =>
  handler(
    apiRequest(`http://localhost/api/incidents/${id}/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    { params: Promise.resolve({ id }) },
  );

/** Person-level pairs at different addresses, each within 250 m (the default D) of the other. */
const PERSON_PAIRS: [string, string, string][] = [
  ["Medical Emergency", "372 North Eighth Street, Springfield", "224 N 8th St, Springfield"],
  ["Trapped Person", "225 W Elm Ln, Springfield", "173 West Elm Lane, Springfield"],
  ["Medical Injuries", "125 E Elm Ln, Springfield", "225 east elm lane, springfield"],
  ["Evacuation Assistance", "372 South Eighth Street, Springfield", "224 S 8th St, Springfield"],
];

describe("grouping decides only when sure", () => {
  it.each(PERSON_PAIRS)("%s at two addresses: two incidents, each marked as a possible duplicate of the other", async (type, first, second) => {
    const calls = await report({ location: first, type }, { location: second, type });
    for (const call of calls) expect(call.locationPrecision).toBe("address_point");
    const [a, b] = calls.map((call) => call.incidentId);
    expect(a).not.toBe(b);
    const [one, other] = [await detail(a), await detail(b)];
    expect(one.possible_duplicates).toEqual([expect.objectContaining({ incident_id: b, location: second })]);
    expect(other.possible_duplicates).toEqual([expect.objectContaining({ incident_id: a, location: first })]);
    const mark = one.possible_duplicates[0];
    expect(mark.distance_m).toBeGreaterThan(0);
    expect(mark.distance_m).toBeLessThanOrEqual(250);
    expect(mark.distance_m).toBe(other.possible_duplicates[0].distance_m);
    expect(mark.seconds_apart).toBe(240);

    // The list carries the marks too.
    const listed = incidentListSchema.parse(await (await listIncidents(apiRequest("http://localhost/api/incidents?limit=1000"))).json());
    expect(listed.incidents.find((incident) => incident.id === a)?.possible_duplicates.map((d) => d.incident_id)).toEqual([b]);
  });

  it("the labour / not-breathing pair is about 223 m apart (the county's points), both critical", async () => {
    const calls = await report(
      { location: "224 N 8th St, Springfield", type: "Medical Emergency" },
      { location: "372 North Eighth Street, Springfield", type: "Medical Emergency" },
    );
    expect(calls.map((call) => call.incident.severity)).toEqual(["critical", "critical"]);
    expect(calls[0].incidentId).not.toBe(calls[1].incidentId);
    const [mark] = (await detail(calls[1].incidentId)).possible_duplicates;
    expect(mark).toMatchObject({ incident_id: calls[0].incidentId });
    // The mark's distance is the two address points' (the fixture county puts them 227 m apart).
    const between = metresBetween({ lat: calls[0].latitude!, lon: calls[0].longitude! }, { lat: calls[1].latitude!, lon: calls[1].longitude! });
    expect(Math.abs(mark.distance_m - between)).toBeLessThanOrEqual(1);
    expect(Math.abs(mark.distance_m - 223)).toBeLessThanOrEqual(10);
  });

  it("one structure fire reported from three neighbouring houses is one incident, with nothing marked", async () => {
    const calls = await report(
      { location: "172 N 8th St, Springfield", type: "Structure Fire" },
      { location: "173 North 8th Street, Springfield", type: "Structure Fire" },
      { location: "125 N 8th St, Springfield", type: "Structure Fire" },
    );
    expect(new Set(calls.map((call) => call.incidentId)).size).toBe(1);
    const incident = await detail(calls[0].incidentId);
    expect(incident.call_count).toBe(3);
    expect(incident.possible_duplicates).toEqual([]);
  });

  it("the same callback number within the window joins its incident, wherever the caller says they are", async () => {
    const phone = "+12175550142";
    const calls = await report(
      { location: "372 North Eighth Street, Springfield", type: "Medical Emergency", phone },
      { location: "725 S 8th St, Springfield", type: "Medical Emergency", phone },
    );
    expect(calls[1].incidentId).toBe(calls[0].incidentId);
  });

  it("the same address of a person's emergency, spelled two ways, is one incident", async () => {
    const calls = await report(
      { location: "224 N 8th St, Springfield", type: "Medical Emergency" },
      { location: "224 n 8th st, springfield", type: "Medical Emergency" },
    );
    expect(calls[1].incidentId).toBe(calls[0].incidentId);
  });

  it("merging a marked pair is one request: one incident of both calls, the mark gone with the other", async () => {
    const calls = await report(
      { location: "372 North Eighth Street, Springfield", type: "Medical Emergency" },
      { location: "224 N 8th St, Springfield", type: "Medical Emergency" },
    );
    const [a, b] = calls.map((call) => call.incidentId);
    expect((await detail(a)).possible_duplicates.map((mark) => mark.incident_id)).toEqual([b]);
    const response = await post(merge, a, "merge", { other_id: b });
    expect(response.status).toBe(200);
    const merged = incidentDetailSchema.parse(await response.json());
    expect(merged.call_count).toBe(2);
    expect(merged.possible_duplicates).toEqual([]);
    const db = await getDb();
    expect(await db.incidentDuplicate.count({ where: { OR: [{ incidentId: b }, { otherId: b }] } })).toBe(0);
  });

  it("dismissing a mark is one request: audited, in the change feed, shown by neither incident, never marked again", async () => {
    const calls = await report(
      { location: "225 W Elm Ln, Springfield", type: "Trapped Person" },
      { location: "173 W Elm Ln, Springfield", type: "Trapped Person" },
    );
    const [a, b] = calls.map((call) => call.incidentId);
    const db = await getDb();
    const before = Number((await db.$queryRaw<{ head: bigint }[]>`SELECT max(change_number) AS head FROM incident_duplicates`)[0].head);

    const response = await post(dismissDuplicate, b, "dismiss-duplicate", { other_id: a });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ incident_id: b, other_id: a, dismissed_by: "API_KEY" });
    expect((await detail(a)).possible_duplicates).toEqual([]);
    expect((await detail(b)).possible_duplicates).toEqual([]);

    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "incident.duplicate_dismissed", targetId: b } });
    expect(audit.after).toEqual({ other_id: a });
    const feed = await readChanges(before, 100);
    expect(feed.changes).toContainEqual(expect.objectContaining({ duplicate: { incident_id: [a, b].sort()[0], other_id: [a, b].sort()[1], dismissed: true } }));

    // A second dismissal finds no mark: 404, nothing changed.
    const again = await post(dismissDuplicate, a, "dismiss-duplicate", { other_id: b });
    expect(again.status).toBe(404);
    expect((await post(dismissDuplicate, a, "dismiss-duplicate", { other_id: a })).status).toBe(400);
  });
});

describe("one point, one radius", () => {
  it("shows the address the centre's GIS matched, in its standard form, the caller's words kept beside it", async () => {
    const [call] = await report({ location: "173 west elm lane, springfield", type: "Gas Leak" });
    const incident = await detail(call.incidentId);
    expect(incident.location).toBe("173 west elm lane, springfield");
    expect(incident.location_matched).toMatch(/^173 W Elm Ln\b.*Springfield/);
    expect(incident.calls[0]).toMatchObject({ location: "173 west elm lane, springfield", location_matched: incident.location_matched });
    // A place only the gazetteer knows has no matched address.
    const [elsewhere] = await report({ location: "Mission District, San Francisco", type: "Gas Leak" });
    expect((await detail(elsewhere.incidentId)).location_matched).toBeNull();
  });


  it("merging a town-centre call into an address-point incident leaves its point, precision and radius as they were", async () => {
    const [precise] = await report({ location: "173 E Elm Ln, Springfield", type: "Structure Fire" });
    const [coarse] = await report({ location: "Springfield", type: "Structure Fire" });
    expect(precise.incident).toMatchObject({ locationPrecision: "address_point", callCount: 1 });
    expect(coarse.locationPrecision).not.toBe("address_point");
    expect(coarse.incident.locationUncertaintyM).toBeGreaterThan(precise.incident.locationUncertaintyM!);
    const before = await detail(precise.incidentId);

    const response = await post(merge, precise.incidentId, "merge", { other_id: coarse.incidentId });
    expect(response.status).toBe(200);
    const after = await detail(precise.incidentId);
    expect(after.call_count).toBe(2);
    expect([after.latitude, after.longitude, after.location_precision, after.location_uncertainty_m]).toEqual([
      before.latitude, before.longitude, before.location_precision, before.location_uncertainty_m,
    ]);
    expect(after.location_uncertainty_m).toBe(precise.locationUncertaintyM);
  });

  it("an address-point call merged into a town-centre incident moves its point there, with that point's radius", async () => {
    const [coarse] = await report({ location: "Springfield", type: "Flooding" });
    const [precise] = await report({ location: "173 E Elm Ln, Springfield", type: "Flooding" });
    const response = await post(merge, coarse.incidentId, "merge", { other_id: precise.incidentId });
    expect(response.status).toBe(200);
    const after = await detail(coarse.incidentId);
    expect([after.latitude, after.longitude, after.location_precision, after.location_uncertainty_m]).toEqual([
      precise.latitude, precise.longitude, "address_point", precise.locationUncertaintyM,
    ]);
  });
});

describe("merge candidates", () => {
  const candidates = async (id: string, query = "") => {
    const response = await mergeCandidatesRoute(apiRequest(`http://localhost/api/incidents/${id}/merge-candidates${query}`), { params: Promise.resolve({ id }) });
    return { status: response.status, body: await response.json() };
  };

  it("lists every open incident of its kind, nearest first, filtered by words of its location or type", async () => {
    const [here, near, far] = await report(
      { location: "125 E Elm Ln, Springfield", type: "Gas Leak" },
      { location: "372 W Oak Ave, Springfield", type: "Medical Emergency" },
      { location: "372 North Eighth Street, North Haverbrook", type: "Gas Leak" },
    );
    const db = await getDb();
    const training = await db.incident.findFirst({ where: { simulation: true } });
    const { status, body } = await candidates(here.incidentId, "?limit=100");
    expect(status).toBe(200);
    const ids: string[] = body.candidates.map((candidate: { id: string }) => candidate.id);
    expect(ids).not.toContain(here.incidentId);
    if (training) expect(ids).not.toContain(training.id);
    expect(ids.indexOf(near.incidentId)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(near.incidentId)).toBeLessThan(ids.indexOf(far.incidentId));
    const distances = body.candidates.map((candidate: { distance_m: number | null }) => candidate.distance_m).filter((d: number | null) => d !== null);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));

    const searched = await candidates(here.incidentId, "?q=haverbrook");
    expect(searched.body.candidates.map((candidate: { id: string }) => candidate.id)).toEqual([far.incidentId]);
    const byType = await candidates(here.incidentId, "?q=gas%20leak&limit=100");
    expect(byType.body.candidates.map((candidate: { id: string }) => candidate.id)).toContain(far.incidentId);
    expect((await candidates(here.incidentId, "?q=100%25")).body.candidates).toEqual([]);

    expect((await candidates("nope")).status).toBe(404);
    expect((await candidates(here.incidentId, "?limit=0")).status).toBe(400);
    expect((await candidates(here.incidentId, `?q=${"x".repeat(101)}`)).status).toBe(400);
  });
});
