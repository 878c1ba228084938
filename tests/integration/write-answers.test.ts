import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { GET as listCalls } from "@/app/api/calls/route";
import { PATCH as patchIncident } from "@/app/api/incidents/[id]/route";
import { POST as merge } from "@/app/api/incidents/[id]/merge/route";
import { POST as addNote } from "@/app/api/incidents/[id]/notes/route";
import { POST as split } from "@/app/api/incidents/[id]/split/route";
import { POST as webhook } from "@/app/api/voiceagent-webhook/route";
import { API_KEY_ACTOR } from "@/lib/access/actor";
import { createKey } from "@/lib/access/keys";
import { type Permission, PERMISSIONS, satisfies } from "@/lib/access/roles";
import type { CallList } from "@/lib/calls/schema";
import type { Endpoint, Method, Operation } from "@/lib/contract/endpoint";
import { endpoints } from "@/lib/http/endpoints";
import { specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { apiRequest } from "../support/auth";
import { webhookRequest } from "../support/webhook-request";
import { withWebhookSecret } from "../support/webhook-secret";

/**
 * docs/security.md, "Answers to writes": a write answers with the record only to a caller who may
 * read it; a key that may dispatch but not read gets an acknowledgement (id, status, what changed),
 * never the transcript or the caller's number.
 */
const SECRET = "wsec_write_answers";
withWebhookSecret(SECRET);
const runId = randomInt(1_000_000);
let counter = 0;

/** A signed call at its own point, so each is an incident of its own. */
async function storedCall(): Promise<{ id: string; incident: string }> {
  const id = `conv_answers_${runId}_${++counter}`;
  const event = specCallEvent(id, { location: `${runId} Nowhere Rd` });
  const results = event.data.analysis.data_collection_results as Record<string, { value: unknown; rationale: string }>;
  results.latitude = { value: 10 + counter, rationale: "test" };
  results.longitude = { value: 10 + counter, rationale: "test" };
  const caller = event.data as unknown as { metadata: Record<string, unknown> };
  // A number of its own: the same callback number joins one incident (docs/incidents.md).
  caller.metadata.phone_call = { external_number: `+1615555${String(counter % 10_000).padStart(4, "0")}` };
  expect((await webhook(webhookRequest(event, { secret: SECRET }), undefined)).status).toBe(200);
  const listed = (await (await listCalls(apiRequest(`http://localhost/api/calls?location=${runId}&limit=1000`), undefined)).json()) as CallList;
  return { id, incident: listed.calls.find((call) => call.conversation_id === id)!.incident_id };
}

let dispatchOnly: string;
let readAndDispatch: string;
beforeAll(async () => {
  dispatchOnly = (await createKey({ name: "dispatch only", scopes: ["dispatch"] }, API_KEY_ACTOR)).key;
  readAndDispatch = (await createKey({ name: "read and dispatch", scopes: ["read", "dispatch"] }, API_KEY_ACTOR)).key;
});

const write = (key: string, url: string, method: string, body: unknown) =>
  apiRequest(`http://localhost${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const context = (id: string) => ({ params: Promise.resolve({ id }) });

async function answer(response: Response, status = 200) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Record<string, unknown>;
}

describe("a key that may dispatch but not read", () => {
  it("PATCH /api/calls/{id}: an acknowledgement, not the call", async () => {
    const { id } = await storedCall();
    const body = await answer(await patchCall(write(dispatchOnly, `/api/calls/${id}`, "PATCH", { status: "dispatched", severity: "high" }), context(id)));
    expect(body).toEqual({ id, status: "dispatched", changed: ["status", "severity"] });
  });

  it("PATCH /api/incidents/{id}: an acknowledgement", async () => {
    const { incident } = await storedCall();
    const body = await answer(await patchIncident(write(dispatchOnly, `/api/incidents/${incident}`, "PATCH", { severity: "moderate" }), context(incident)));
    expect(body).toEqual({ id: incident, status: "active", changed: ["severity"] });
  });

  it("POST /api/incidents/{id}/merge and /split: an acknowledgement naming the incident", async () => {
    const [first, second] = [await storedCall(), await storedCall()];
    const merged = await answer(await merge(write(dispatchOnly, `/api/incidents/${first.incident}/merge`, "POST", { other_id: second.incident }), context(first.incident)));
    expect(merged).toEqual({ id: first.incident, status: "active", changed: ["calls"] });
    const parted = await answer(await split(write(dispatchOnly, `/api/incidents/${first.incident}/split`, "POST", { call_id: second.id }), context(first.incident)));
    expect(parted).toEqual({ id: expect.any(String), status: "active", changed: ["calls"] });
    expect(parted.id).not.toBe(first.incident);
  });

  it("POST /api/incidents/{id}/notes: an acknowledgement", async () => {
    const { incident } = await storedCall();
    const body = await answer(await addNote(write(dispatchOnly, `/api/incidents/${incident}/notes`, "POST", { text: "Crew on scene." }), context(incident)), 201);
    expect(body).toEqual({ id: expect.any(String), changed: ["notes"] });
  });
});

describe("a key that may also read", () => {
  it("gets the record, transcript and number included", async () => {
    const { id } = await storedCall();
    const body = await answer(await patchCall(write(readAndDispatch, `/api/calls/${id}`, "PATCH", { status: "dispatched" }), context(id)));
    expect(body).toMatchObject({ conversation_id: id, status: "dispatched", caller_phone: expect.stringMatching(/^\+1615555\d{4}$/) });
    expect(body.transcript).toHaveLength(3);
  });
});

/**
 * Every write the registry declares that a caller without `read` may make answers in a form that
 * admits the acknowledgement, so a new one cannot forget the rule. Not concerned: writes that need
 * `admin` (their records are read with `admin` too), the trainer's simulate and exercise
 * answers, which describe only the synthetic calls and plan the request itself made, and the
 * acknowledgement of every alert of a kind, which answers only how many it acknowledged: no record.
 */
const ANSWERS_OF_ITS_OWN_MAKING = new Set(["simulate", "createExercise", "startExercise", "pauseExercise", "resumeExercise", "stopExercise", "acknowledgeAlerts"]);

describe("the registry", () => {
  const withoutRead = new Set<Permission>(PERMISSIONS.filter((permission) => permission !== "read" && permission !== "admin"));
  const writes = Object.values(endpoints as Record<string, Endpoint>).flatMap((endpoint) =>
    (Object.entries(endpoint.methods) as [Method, Operation][])
      .filter(([method, operation]) => method !== "GET" && operation.permission !== "public" && satisfies(withoutRead, operation.permission))
      .filter(([, operation]) => !ANSWERS_OF_ITS_OWN_MAKING.has(operation.operationId))
      .map(([method, operation]) => [`${method} ${endpoint.path}`, operation] as const),
  );

  it("finds the writes of calls, incidents and notes", () => {
    expect(writes.map(([label]) => label)).toEqual(
      expect.arrayContaining(["PATCH /api/calls/:id", "PATCH /api/incidents/:id", "POST /api/incidents/:id/notes", "POST /api/incidents/:id/merge"]),
    );
  });

  it.each(writes)("%s documents the acknowledgement as its answer to a caller without read", (_, operation) => {
    const bodies = Object.entries(operation.responses).flatMap(([status, response]) => (Number(status) < 300 && response.body ? [response.body] : []));
    for (const body of bodies) expect(body.schema.safeParse({ id: "x", status: "active", changed: ["status"] }).success).toBe(true);
  });
});
