import { beforeAll, describe, expect, it } from "vitest";
import { GET as auditRoute } from "@/app/api/audit/route";
import { GET as getCallRoute, PATCH as patchCallRoute } from "@/app/api/calls/[id]/route";
import { POST as takeCallRoute } from "@/app/api/calls/route";
import { POST as instructionRoute } from "@/app/api/calls/[id]/instruction/route";
import { POST as transferRoute } from "@/app/api/calls/[id]/transfer/route";
import { GET as recordingRoute } from "@/app/api/calls/[id]/recording/route";
import { POST as startRoute } from "@/app/api/exercises/[id]/start/route";
import { POST as pauseRoute } from "@/app/api/exercises/[id]/pause/route";
import { POST as resumeRoute } from "@/app/api/exercises/[id]/resume/route";
import { POST as stopRoute } from "@/app/api/exercises/[id]/stop/route";
import { POST as createExerciseRoute } from "@/app/api/exercises/route";
import { POST as acknowledgeRoute } from "@/app/api/incidents/[id]/acknowledge/route";
import { POST as dismissDuplicateRoute } from "@/app/api/incidents/[id]/dismiss-duplicate/route";
import { POST as addNoteRoute } from "@/app/api/incidents/[id]/notes/route";
import { POST as mergeRoute } from "@/app/api/incidents/[id]/merge/route";
import { PATCH as patchIncidentRoute } from "@/app/api/incidents/[id]/route";
import { POST as splitRoute } from "@/app/api/incidents/[id]/split/route";
import { POST as undoStatusRoute } from "@/app/api/incidents/[id]/undo-status/route";
import { DELETE as revokeKeyRoute } from "@/app/api/keys/[id]/route";
import { POST as createKeyRoute } from "@/app/api/keys/route";
import { DELETE as signOutRoute, POST as signInRoute } from "@/app/api/session/route";
import { POST as simulateRoute } from "@/app/api/simulate/route";
import { DELETE as removeUserRoute, PATCH as patchUserRoute } from "@/app/api/users/[id]/route";
import { POST as replaySubscriptionRoute } from "@/app/api/subscriptions/[id]/replay/route";
import { DELETE as removeSubscriptionRoute, PATCH as patchSubscriptionRoute } from "@/app/api/subscriptions/[id]/route";
import { POST as createSubscriptionRoute } from "@/app/api/subscriptions/route";
import { POST as createUserRoute } from "@/app/api/users/route";
import { POST as assignUnitsRoute } from "@/app/api/incidents/[id]/units/route";
import { POST as importUnitsRoute } from "@/app/api/units/import/route";
import { PUT as setResponsePlanRoute } from "@/app/api/response-plans/[emergency_type]/[severity]/route";
import { PATCH as patchUnitRoute } from "@/app/api/units/[id]/route";
import { POST as unitStateRoute } from "@/app/api/units/[id]/state/route";
import { POST as undoUnitStateRoute } from "@/app/api/units/[id]/undo-state/route";
import { POST as createUnitRoute } from "@/app/api/units/route";
import { POST as webhookRoute } from "@/app/api/voiceagent-webhook/route";
import { POST as gisImportRoute } from "@/app/api/gis/route";
import { AUDIT_ACTIONS, type AuditEventView, type AuditPage } from "@/lib/audit/schema";
import { NOTHING_REPORTED, storeLiveCall } from "@/lib/calls/write/live";
import { getDb } from "@/lib/db/client";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { TEST_API_KEY } from "@/tests/support/auth";
import { type SignedInPerson, signedIn, TEST_PASSWORD } from "@/tests/support/people";
import { webhookRequest } from "@/tests/support/webhook-request";
import { withWebhookSecret } from "@/tests/support/webhook-secret";
import { withMoveDetails } from "../support/incident-moves";

/**
 * Every kind of change, and a person's reading, is one audit row naming who did it, written in the
 * change's own transaction: a change that fails leaves none.
 */

const SECRET = "wsec_audit";
withWebhookSecret(SECRET);

type Handler = (request: Request, context?: { params?: Promise<Record<string, string>> }) => Promise<Response>;

/** A request from the dashboard of `person` (cookie and Fetch Metadata), or with the API key. */
async function send(handler: Handler, method: string, path: string, as: SignedInPerson | "key", body?: unknown, id?: string) {
  const headers: Record<string, string> =
    as === "key" ? { authorization: `Bearer ${TEST_API_KEY}` } : { cookie: as.cookie, "sec-fetch-site": "same-origin" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const request = new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return handler(request, id === undefined ? undefined : { params: Promise.resolve({ id }) });
}

async function trail(query = ""): Promise<AuditEventView[]> {
  const events: AuditEventView[] = [];
  let cursor: string | null = null;
  do {
    const response = await auditRoute(
      new Request(`http://localhost/api/audit?limit=500${query}${cursor ? `&cursor=${cursor}` : ""}`, {
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      }),
      undefined,
    );
    expect(response.status).toBe(200);
    const page = (await response.json()) as AuditPage;
    events.push(...page.events);
    cursor = page.next_cursor;
  } while (cursor);
  return events;
}

const count = async () => Number((await (await getDb()).$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM audit_events`)[0].n);

let dispatcher: SignedInPerson;
let trainer: SignedInPerson;
let admin: SignedInPerson;

beforeAll(async () => {
  [dispatcher, trainer, admin] = await Promise.all([signedIn("dispatcher", "Dana Ruiz"), signedIn("trainer", "Theo Park"), signedIn("admin", "Ada Stone")]);
});

describe("the audit trail", () => {
  it("records each of the 40 actions exactly once, naming the person; the call's history names them too", async () => {
    const before = await count();
    const startedAt = new Date().toISOString();

    // A real call (the webhook) with a recording, and a simulation (trainer) of calls about one event.
    const conversationId = "conv_audit_1";
    expect((await webhookRoute(webhookRequest(specCallEvent(conversationId), { secret: SECRET }), undefined)).status).toBe(200);
    const audio = { type: "post_call_audio", event_timestamp: 1_767_250_000, data: { agent_id: "a", conversation_id: conversationId, full_audio: Buffer.from("ID3audio").toString("base64") } };
    expect((await webhookRoute(webhookRequest(audio, { secret: SECRET }), undefined)).status).toBe(200);
    const simulated = await send(simulateRoute, "POST", "/api/simulate", trainer, { scenario: "la_wildfire", num_calls: 3, table_name: "calls", seed: 4 });
    expect(simulated.status).toBe(200);

    // A call the dispatcher took (docs/calls.md, "A call a person takes").
    const took = await send(takeCallRoute, "POST", "/api/calls", dispatcher, { location: "Harbor City, Los Angeles", emergency_type: "gas_leak", severity: "high" });
    expect(took.status).toBe(201);
    expect(((await took.json()).history as { changed_by: string }[])[0].changed_by).toBe("Dana Ruiz");

    expect((await send(getCallRoute, "GET", `/api/calls/${conversationId}`, dispatcher, undefined, conversationId)).status).toBe(200);
    const played = await send(recordingRoute, "GET", `/api/calls/${conversationId}/recording`, dispatcher, undefined, conversationId);
    expect(played.status).toBe(200);
    await played.arrayBuffer();
    const changed = await send(patchCallRoute, "PATCH", `/api/calls/${conversationId}`, dispatcher, { status: "dispatched" }, conversationId);
    expect(changed.status).toBe(200);
    const history = (await changed.json()).history as { status: string; changed_by: string }[];
    expect(history.at(-1)).toMatchObject({ status: "dispatched", changed_by: "Dana Ruiz" });
    // An instruction for the voice agent (docs/webhook.md, "Live calls").
    expect((await send(instructionRoute, "POST", `/api/calls/${conversationId}/instruction`, dispatcher, { text: "Keep the caller on the line" }, conversationId)).status).toBe(201);
    // A transfer of a Vapi call on the line (no control URL received: it fails, and is audited all the same).
    const liveId = "vapi:audit_live";
    await storeLiveCall({ ...NOTHING_REPORTED, conversationId: liveId, platform: "vapi", agentId: "asst", callerPhone: null }, undefined);
    expect((await send(transferRoute, "POST", `/api/calls/${liveId}/transfer`, dispatcher, { number: "+16155550100" }, liveId)).status).toBe(200);

    // Incidents: two of the webhook's, merged, one call split out again, the incident moved.
    const db = await getDb();
    expect((await webhookRoute(webhookRequest(specCallEvent("conv_audit_2", { location: "Harbor City, Los Angeles" }), { secret: SECRET }), undefined)).status).toBe(200);
    const [first, second] = await db.$queryRaw<{ incident_id: string }[]>`
      SELECT incident_id FROM calls WHERE conversation_id IN ('conv_audit_1', 'conv_audit_2') ORDER BY conversation_id`;
    expect(first.incident_id).not.toBe(second.incident_id);
    expect((await send(mergeRoute, "POST", `/api/incidents/${first.incident_id}/merge`, dispatcher, { other_id: second.incident_id }, first.incident_id)).status).toBe(200);
    expect((await send(splitRoute, "POST", `/api/incidents/${first.incident_id}/split`, dispatcher, { call_id: "conv_audit_2" }, first.incident_id)).status).toBe(200);
    const enroute = await send(patchIncidentRoute, "PATCH", `/api/incidents/${first.incident_id}`, dispatcher, withMoveDetails("enroute"), first.incident_id);
    expect(enroute.status).toBe(200);
    const { status_change: move } = await enroute.json();
    expect((await send(undoStatusRoute, "POST", `/api/incidents/${first.incident_id}/undo-status`, dispatcher, { change_id: move.id }, first.incident_id)).status).toBe(200);
    expect((await send(addNoteRoute, "POST", `/api/incidents/${first.incident_id}/notes`, dispatcher, { text: "Engine 12 sent" }, first.incident_id)).status).toBe(201);
    expect((await send(acknowledgeRoute, "POST", `/api/incidents/${first.incident_id}/acknowledge`, dispatcher, undefined, first.incident_id)).status).toBe(201);
    // A possible duplicate (as grouping marks two incidents of a person close together), dismissed.
    const [{ incident_id: splitOut }] = await db.$queryRaw<{ incident_id: string }[]>`SELECT incident_id FROM calls WHERE conversation_id = 'conv_audit_2'`;
    const pair = [first.incident_id, splitOut].sort();
    await db.$executeRaw`INSERT INTO incident_duplicates (incident_id, other_id, distance_m, seconds_apart) VALUES (${pair[0]}, ${pair[1]}, 120, 60)`;
    expect((await send(dismissDuplicateRoute, "POST", `/api/incidents/${first.incident_id}/dismiss-duplicate`, dispatcher, { other_id: splitOut }, first.incident_id)).status).toBe(200);
    // Units: the roster kept by the administrator, one sent by the dispatcher to the incident
    // already en route (its status stays: only the unit's state moves).
    const unit = await send(createUnitRoute, "POST", "/api/units", admin, { call_sign: "E12", type: "engine" });
    expect(unit.status).toBe(201);
    const unitId = (await unit.json()).id as string;
    expect((await send(patchUnitRoute, "PATCH", `/api/units/${unitId}`, admin, { name: "Engine 12" }, unitId)).status).toBe(200);
    expect((await send(importUnitsRoute, "POST", "/api/units/import", admin, { csv: "call_sign,type\nM3,ambulance\n" })).status).toBe(201);
    // A response plan (docs/units.md): what the recommendation fills for a structure fire.
    const plan = new Request("http://localhost/api/response-plans/structure_fire/critical", {
      method: "PUT",
      headers: { cookie: admin.cookie, "sec-fetch-site": "same-origin", "content-type": "application/json" },
      body: JSON.stringify({ slots: [{ type: "engine", count: 2 }] }),
    });
    expect((await setResponsePlanRoute(plan, { params: Promise.resolve({ emergency_type: "structure_fire", severity: "critical" }) })).status).toBe(200);
    expect((await send(assignUnitsRoute, "POST", `/api/incidents/${first.incident_id}/units`, dispatcher, { unit_ids: [unitId] }, first.incident_id)).status).toBe(201);
    // The crew's en route, entered by the dispatcher by mistake and undone.
    const enRoute = await send(unitStateRoute, "POST", `/api/units/${unitId}/state`, dispatcher, { state: "en_route" }, unitId);
    expect(enRoute.status).toBe(200);
    const { state_change_id: unitMove } = await enRoute.json();
    expect((await send(undoUnitStateRoute, "POST", `/api/units/${unitId}/undo-state`, dispatcher, { change_id: unitMove }, unitId)).status).toBe(200);
    // Corrections of what the agent heard: one call's severity, then the incident's type.
    const corrected = await send(patchCallRoute, "PATCH", `/api/calls/conv_audit_2`, dispatcher, { severity: "moderate" }, "conv_audit_2");
    expect(corrected.status).toBe(200);
    expect(((await corrected.json()).corrections as { changed_by: string }[]).at(-1)?.changed_by).toBe("Dana Ruiz");
    expect((await send(patchIncidentRoute, "PATCH", `/api/incidents/${first.incident_id}`, dispatcher, { emergency_type: "gas_leak" }, first.incident_id)).status).toBe(200);

    // An exercise through its life (trainer).
    const created = await send(createExerciseRoute, "POST", "/api/exercises", trainer, { scenario: "la_wildfire", duration_minutes: 30, num_calls: 5 });
    expect(created.status).toBe(201);
    const exercise = (await created.json()).id as string;
    for (const [route, verb] of [[startRoute, "start"], [pauseRoute, "pause"], [resumeRoute, "resume"], [stopRoute, "stop"]] as const) {
      expect((await send(route, "POST", `/api/exercises/${exercise}/${verb}`, trainer, undefined, exercise)).status).toBe(200);
    }

    // People and keys (administrator).
    const key = await send(createKeyRoute, "POST", "/api/keys", admin, { name: "CAD bridge", scopes: ["read"] });
    expect(key.status).toBe(201);
    const keyId = (await key.json()).id as string;
    expect((await send(revokeKeyRoute, "DELETE", `/api/keys/${keyId}`, admin, undefined, keyId)).status).toBe(200);
    // A webhook subscription through its life (administrator): its secrets never reach the trail.
    const subscription = await send(createSubscriptionRoute, "POST", "/api/subscriptions", admin, { name: "County CAD", url: "https://93.184.216.34/hook", event_types: ["incident.created"] });
    expect(subscription.status).toBe(201);
    const { id: subscriptionId, secret } = (await subscription.json()) as { id: string; secret: string };
    const rotated = await send(patchSubscriptionRoute, "PATCH", `/api/subscriptions/${subscriptionId}`, admin, { rotate_secret: true, enabled: false }, subscriptionId);
    expect(rotated.status).toBe(200);
    const { secret: rotatedSecret } = (await rotated.json()) as { secret: string };
    expect((await send(replaySubscriptionRoute, "POST", `/api/subscriptions/${subscriptionId}/replay?after=0`, admin, undefined, subscriptionId)).status).toBe(200);
    expect((await send(removeSubscriptionRoute, "DELETE", `/api/subscriptions/${subscriptionId}`, admin, undefined, subscriptionId)).status).toBe(200);
    // The centre's GIS data (administrator): a layer replaced from a file.
    const gisFile = "Add_Number,St_Name,St_PosTyp,lon,lat\n10,Audit,St,-89.6,39.7\n";
    const gisHeaders = { cookie: admin.cookie, "sec-fetch-site": "same-origin", "content-type": "text/csv" };
    expect((await gisImportRoute(new Request("http://localhost/api/gis?name=audit.csv", { method: "POST", headers: gisHeaders, body: gisFile }), undefined)).status).toBe(200);
    const user = await send(createUserRoute, "POST", "/api/users", admin, { name: "Vic Viewer", email: "vic@example.org", password: TEST_PASSWORD, role: "viewer" });
    expect(user.status).toBe(201);
    const userId = (await user.json()).id as string;
    expect((await send(patchUserRoute, "PATCH", `/api/users/${userId}`, admin, { role: "dispatcher" }, userId)).status).toBe(200);

    // Signing in (wrong, then right) and out, then the person removed.
    const signIn = (password: string) =>
      signInRoute(new Request("http://localhost/api/session", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.7" }, body: JSON.stringify({ email: "vic@example.org", password }) }), undefined);
    expect((await signIn("wrong password!")).status).toBe(401);
    const signedInResponse = await signIn(TEST_PASSWORD);
    expect(signedInResponse.status).toBe(200);
    const cookie = signedInResponse.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ");
    expect((await signOutRoute(new Request("http://localhost/api/session", { method: "DELETE", headers: { cookie } }), undefined)).status).toBe(204);
    expect((await send(removeUserRoute, "DELETE", `/api/users/${userId}`, admin, undefined, userId)).status).toBe(204);

    const events = (await trail(`&from=${encodeURIComponent(startedAt)}`)).reverse();
    expect(await count()).toBe(before + events.length);
    const byAction = new Map<string, AuditEventView[]>();
    for (const event of events) byAction.set(event.action, [...(byAction.get(event.action) ?? []), event]);
    expect([...byAction.keys()].sort()).toEqual([...AUDIT_ACTIONS].sort());
    // Each once, but the acknowledgement: moving the incident on acknowledged its alert with the work
    // (docs/dashboard.md, "Alerts"), before the dispatcher's own acknowledgement; and the status move:
    // the dispatcher's, undone, then the unit sent to it moved it again; and the unit's state: sent,
    // then en route (undone).
    const twice = ["incident.acknowledged", "incident.status_changed", "unit.state_changed"];
    for (const action of AUDIT_ACTIONS) expect(byAction.get(action), action).toHaveLength(twice.includes(action) ? 2 : 1);
    expect(byAction.get("incident.acknowledged")!.map((event) => (event.after as { with?: string } | null)?.with ?? "by hand")).toEqual(["dispatched", "by hand"]);

    const one = (action: string) => byAction.get(action)![0];
    expect(one("call.status_changed")).toMatchObject({
      actor: { kind: "user", id: dispatcher.user.id, name: "Dana Ruiz" },
      target: { kind: "call", id: conversationId },
      before: { status: "active" },
      after: { status: "dispatched" },
    });
    expect(one("call.corrected")).toMatchObject({
      actor: { kind: "user", id: dispatcher.user.id, name: "Dana Ruiz" },
      target: { kind: "call", id: "conv_audit_2" },
      before: { severity: "critical" },
      after: { severity: "moderate" },
    });
    expect(one("incident.corrected")).toMatchObject({
      actor: { name: "Dana Ruiz" },
      target: { kind: "incident", id: first.incident_id },
      after: { emergency_type: "gas_leak", calls_corrected: 1 },
    });
    expect(one("call.viewed").actor.name).toBe("Dana Ruiz");
    expect(one("incident.acknowledged")).toMatchObject({ actor: { name: "Dana Ruiz" }, target: { kind: "incident", id: first.incident_id } });
    expect(one("incident.note_added")).toMatchObject({ actor: { name: "Dana Ruiz" }, target: { kind: "incident", id: first.incident_id }, after: { text: "Engine 12 sent" } });
    expect(one("call.recording_played").actor.name).toBe("Dana Ruiz");
    expect(one("simulation.run")).toMatchObject({ actor: { name: "Theo Park" }, after: { stored: 3 } });
    expect(one("exercise.stopped")).toMatchObject({ actor: { name: "Theo Park" }, target: { kind: "exercise", id: exercise } });
    expect(one("key.created")).toMatchObject({ actor: { name: "Ada Stone" }, after: { name: "CAD bridge", scopes: ["read"] } });
    expect(one("user.role_changed")).toMatchObject({ before: { role: "viewer" }, after: { role: "dispatcher" } });
    expect(one("session.sign_in_failed")).toMatchObject({ actor: { kind: "anonymous", id: userId, name: "vic@example.org" }, client_address: expect.any(String) });
    expect(one("session.signed_in").actor).toMatchObject({ kind: "user", id: userId, name: "Vic Viewer" });
    expect(one("session.signed_out").actor).toMatchObject({ kind: "user", id: userId });
    // No secret ever reaches the trail.
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`${TEST_PASSWORD}|wrong password|mdk_|whsec_`));
    expect(JSON.stringify(events)).not.toContain(secret.slice(6, 20));
    expect(JSON.stringify(events)).not.toContain(rotatedSecret.slice(6, 20));
    expect(one("subscription.updated")).toMatchObject({ actor: { name: "Ada Stone" }, after: { enabled: false, secret_rotated: true } });
    expect(one("gis.imported")).toMatchObject({ actor: { name: "Ada Stone" }, target: { kind: "gis_layer", id: "address_points" }, after: { features: 1, source: "audit.csv" } });
    expect(one("call.instruction_written")).toMatchObject({ actor: { name: "Dana Ruiz" }, target: { kind: "call", id: conversationId }, after: { text: "Keep the caller on the line" } });
    expect(one("call.instruction_delivered")).toMatchObject({ actor: { name: "Dana Ruiz" }, target: { kind: "call", id: conversationId }, after: { outcome: "waiting" } });
    expect(one("call.transfer_requested")).toMatchObject({ actor: { name: "Dana Ruiz" }, target: { kind: "call", id: "vapi:audit_live" }, after: { number: "+16155550100", outcome: "failed" } });
    expect(one("subscription.replayed")).toMatchObject({ target: { kind: "subscription", id: subscriptionId }, after: { cursor: 0 } });

    // Filters: by actor, by action, by target.
    expect((await trail(`&actor=${dispatcher.user.id}&from=${encodeURIComponent(startedAt)}`)).map((event) => event.action).sort()).toEqual(
      [
        "call.corrected", "call.instruction_delivered", "call.instruction_written", "call.recording_played", "call.status_changed", "call.taken", "call.transfer_requested", "call.viewed",
        "incident.acknowledged", "incident.acknowledged", "incident.corrected", "incident.duplicate_dismissed", "incident.merged",
        "incident.note_added", "incident.split", "incident.status_changed", "incident.status_changed", "incident.status_undone", "incident.units_assigned", "unit.state_changed",
        "unit.state_changed", "unit.state_undone",
      ],
    );
    expect((await trail(`&target_id=${conversationId}`)).map((event) => event.action).sort()).toEqual(["call.instruction_delivered", "call.instruction_written", "call.recording_played", "call.status_changed", "call.viewed"]);
    expect(await trail("&action=key.revoked")).toHaveLength(1);
  });

  it("a change that fails leaves no row", async () => {
    expect((await webhookRoute(webhookRequest(specCallEvent("conv_audit_fail"), { secret: SECRET }), undefined)).status).toBe(200);
    const before = await count();
    const refused = [
      // Not along the workflow, an unknown call, a role that may not, a merge into itself, a bad role.
      await send(patchCallRoute, "PATCH", "/api/calls/conv_audit_fail", dispatcher, { status: "bogus" }, "conv_audit_fail"),
      await send(patchCallRoute, "PATCH", "/api/calls/conv_audit_fail", dispatcher, { status: "resolved" }, "conv_audit_fail").then(async () =>
        send(patchCallRoute, "PATCH", "/api/calls/conv_audit_fail", dispatcher, { status: "active" }, "conv_audit_fail"),
      ),
      await send(patchCallRoute, "PATCH", "/api/calls/no-such-call", dispatcher, { status: "dispatched" }, "no-such-call"),
      await send(patchCallRoute, "PATCH", "/api/calls/conv_audit_fail", trainer, { status: "failed" }, "conv_audit_fail"),
      await send(mergeRoute, "POST", "/api/incidents/x/merge", dispatcher, { other_id: "x" }, "x"),
      await send(patchUserRoute, "PATCH", `/api/users/${admin.user.id}`, admin, { role: "emperor" }, admin.user.id),
      await send(createUserRoute, "POST", "/api/users", dispatcher, { name: "No", email: "no@example.org", password: TEST_PASSWORD, role: "admin" }),
    ];
    expect(refused.map((response) => response.status)).toEqual([400, 409, 404, 403, 400, 400, 403]);
    // Only the one successful move (active -> resolved) is in the trail.
    expect(await count()).toBe(before + 1);
    const [last] = await trail("&target_id=conv_audit_fail");
    expect(last).toMatchObject({ action: "call.status_changed", after: { status: "resolved" } });
  });

  it("filters by the documented target_kind, target_id, from and to, and refuses the names it no longer reads", async () => {
    const db = await getDb();
    // Rows of a year nothing else writes in, so the time filters have exact answers.
    const rows: [string, string, string][] = [
      ["2001-03-01T10:00:00Z", "user", "same-id"],
      ["2001-03-02T10:00:00Z", "key", "same-id"],
      ["2001-03-03T10:00:00Z", "user", "other-id"],
      ["2001-03-04T10:00:00Z", "user", "same-id"],
    ];
    for (const [at, kind, id] of rows) {
      await db.$executeRaw`
        INSERT INTO audit_events (id, at, actor_kind, actor_name, action, target_kind, target_id)
        VALUES (gen_random_uuid()::text, ${new Date(at)}, 'anonymous', 'filters', 'user.removed', ${kind}, ${id})`;
    }
    const window = `&from=${encodeURIComponent("2001-03-02T00:00:00Z")}&to=${encodeURIComponent("2001-03-04T10:00:00Z")}`;
    const times = async (query: string) => (await trail(query)).map((event) => event.at);
    expect(await times(`${window}&action=user.removed`)).toEqual(["2001-03-03T10:00:00.000Z", "2001-03-02T10:00:00.000Z"]);
    expect(await times(`&target_kind=key&from=2001-01-01T00:00:00Z&to=2002-01-01T00:00:00Z`)).toEqual(["2001-03-02T10:00:00.000Z"]);
    expect(await times(`&target_kind=user&target_id=same-id`)).toEqual(["2001-03-04T10:00:00.000Z", "2001-03-01T10:00:00.000Z"]);

    // The names read before (never documented) answer 400 rather than an unfiltered trail.
    for (const old of ["target=same-id", "since=2001-03-02T00:00:00Z", "until=2001-03-04T00:00:00Z"]) {
      const response = await auditRoute(new Request(`http://localhost/api/audit?${old}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` } }), undefined);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error_code: "INVALID_PARAMETER" });
    }
  });

  it("is append-only: the database refuses to change or remove a row", async () => {
    const db = await getDb();
    await expect(db.$executeRaw`UPDATE audit_events SET actor_name = 'someone else'`).rejects.toThrow();
    await expect(db.$executeRaw`DELETE FROM audit_events`).rejects.toThrow();
  });
});
