import { apiRequest } from "@/tests/support/auth";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getOne, PATCH } from "@/app/api/calls/[id]/route";
import { GET as list } from "@/app/api/calls/route";
import { callDetailSchema, type CallStatus, STATUSES } from "@/lib/calls/schema";
import { canTransition } from "@/lib/calls/workflow";
import { getDb } from "@/lib/db/client";
import { type CallInput, insertCalls, makeCalls } from "../support/calls";

const context = (id: string) => ({ params: Promise.resolve({ id }) });

function get(id: string) {
  return getOne(apiRequest(`http://localhost/api/calls/${encodeURIComponent(id)}`), context(id));
}

function patch(id: string, body: unknown, contentType = "application/json") {
  return PATCH(
    apiRequest(`http://localhost/api/calls/${encodeURIComponent(id)}`, {
      method: "PATCH",
      headers: { "content-type": contentType },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    context(id),
  );
}

/** A fresh call in the given status, stored the way the writers store one. */
let counter = 0;
async function callIn(status: CallStatus, simulated = false): Promise<CallInput> {
  const call = makeCalls(20, 1000 + counter++).find((made) => made.simulation === simulated)!;
  const id = `${simulated ? "SIM" : "conv"}-status-${counter}`;
  const stored = { ...call, status, conversationId: id, callId: simulated ? id : null };
  await insertCalls(await getDb(), [stored]);
  return stored;
}

async function history(id: string): Promise<{ status: string; changed_at: string }[]> {
  return (await (await get(id)).json()).history;
}

beforeAll(async () => {
  await insertCalls(await getDb(), makeCalls(20, 3));
});

describe("GET /api/calls/{id}", () => {
  it("answers a simulated call with its own fields, generated record and creation in the history", async () => {
    const call = await callIn("active", true);
    const response = await get(call.conversationId);
    expect(response.status).toBe(200);
    const body = callDetailSchema.parse(await response.json());
    expect(body).toMatchObject({
      conversation_id: call.conversationId,
      call_id: call.conversationId,
      agent_id: "simulator",
      status: "active",
      simulated_record: call.simulatedRecord,
    });
    expect(body.history).toEqual([{ status: "active", changed_at: call.occurredAt.toISOString(), changed_by: "simulator" }]);
  });

  it("answers a voice-agent call without simulation fields", async () => {
    const call = await callIn("failed");
    const body = await (await get(call.conversationId)).json();
    expect(body.status).toBe("failed");
    expect(body).not.toHaveProperty("simulated_record");
    expect(body).not.toHaveProperty("call_id");
  });

  it("answers 404 NOT_FOUND for an unknown id", async () => {
    const response = await get("no-such-call");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: "Not found",
      message: "No call with id no-such-call",
      timestamp: expect.any(String),
      error_code: "NOT_FOUND",
    });
  });
});

describe("PATCH /api/calls/{id}", () => {
  const allowed: [CallStatus, CallStatus][] = [
    ["active", "dispatched"],
    ["active", "enroute"],
    ["active", "resolved"],
    ["active", "failed"],
    ["dispatched", "enroute"],
    ["dispatched", "resolved"],
    ["dispatched", "failed"],
    ["enroute", "resolved"],
    ["enroute", "failed"],
  ];
  const forbidden: [CallStatus, CallStatus][] = STATUSES.flatMap((from) =>
    STATUSES.filter((to) => to !== from && !allowed.some(([a, b]) => a === from && b === to)).map(
      (to) => [from, to] as [CallStatus, CallStatus],
    ),
  );

  it("has exactly the documented transitions", () => {
    expect(forbidden).toHaveLength(11);
    for (const [from, to] of allowed) expect(canTransition(from, to)).toBe(true);
    for (const [from, to] of forbidden) expect(canTransition(from, to)).toBe(false);
  });

  it.each(allowed)("moves %s -> %s and appends the change to the history", async (from, to) => {
    const call = await callIn(from);
    const before = Date.now();
    const response = await patch(call.conversationId, { status: to });
    expect(response.status).toBe(200);
    const body = callDetailSchema.parse(await response.json());
    expect(body.status).toBe(to);
    expect(body.history.map((change) => change.status)).toEqual([from, to]);
    expect(Date.parse(body.history[1].changed_at)).toBeGreaterThanOrEqual(before - 1000);
    const stored = await (await getDb()).callStatusChange.findMany({ where: { callId: call.id }, orderBy: { id: "asc" } });
    expect(stored.at(-1)).toMatchObject({ fromStatus: from, status: to, changedBy: "key:API_KEY" });
  });

  it.each(forbidden)("refuses %s -> %s with 409 INVALID_TRANSITION and changes nothing", async (from, to) => {
    const call = await callIn(from);
    const response = await patch(call.conversationId, { status: to });
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body).toMatchObject({ error_code: "INVALID_TRANSITION", current_status: from });
    expect(body.message).toContain(`from ${from} to ${to}`);
    expect(await history(call.conversationId)).toHaveLength(1);
  });

  it("walks a call through the whole workflow, history oldest first", async () => {
    const call = await callIn("active", true);
    for (const status of ["dispatched", "enroute", "resolved"] as const) {
      expect((await patch(call.conversationId, { status })).status).toBe(200);
    }
    const changes = await history(call.conversationId);
    expect(changes.map((change) => change.status)).toEqual(["active", "dispatched", "enroute", "resolved"]);
    const times = changes.map((change) => Date.parse(change.changed_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("answers the same status again with 200 and no second history entry", async () => {
    const call = await callIn("dispatched");
    const response = await patch(call.conversationId, { status: "dispatched" });
    expect(response.status).toBe(200);
    expect(await history(call.conversationId)).toHaveLength(1);
  });

  it("lets only one of two concurrent dispatchers finish an en-route call", async () => {
    for (let round = 0; round < 5; round++) {
      const call = await callIn("enroute");
      const responses = await Promise.all([
        patch(call.conversationId, { status: "resolved" }),
        patch(call.conversationId, { status: "failed" }),
      ]);
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      const changes = await history(call.conversationId);
      expect(changes).toHaveLength(2);
      const winner = await responses.find((response) => response.status === 200)!.json();
      expect(changes[1].status).toBe(winner.status);
    }
  });

  it("keeps a valid chain of changes under many concurrent requests", async () => {
    const call = await callIn("active");
    const targets: CallStatus[] = ["dispatched", "enroute", "dispatched", "resolved", "failed", "enroute", "active", "failed"];
    const responses = await Promise.all(targets.map((status) => patch(call.conversationId, { status })));
    const stored = await (await getDb()).callStatusChange.findMany({
      where: { callId: call.id },
      orderBy: [{ changedAt: "asc" }, { id: "asc" }],
    });
    for (let index = 1; index < stored.length; index++) {
      expect(stored[index].fromStatus).toBe(stored[index - 1].status);
      expect(canTransition(stored[index - 1].status as CallStatus, stored[index].status as CallStatus)).toBe(true);
    }
    const final = stored.at(-1)!.status;
    expect(["resolved", "failed"]).toContain(final);
    expect((await (await get(call.conversationId)).json()).status).toBe(final);
    expect(responses.every((response) => response.status === 200 || response.status === 409)).toBe(true);
  });

  it("shows the new status in the very next listing", async () => {
    const call = await callIn("active");
    const listed = async () =>
      (await (await list(apiRequest("http://localhost/api/calls?limit=1000&status=dispatched"), undefined)).json()).calls.map(
        (shown: { conversation_id: string }) => shown.conversation_id,
      );
    expect(await listed()).not.toContain(call.conversationId);
    await patch(call.conversationId, { status: "dispatched" });
    expect(await listed()).toContain(call.conversationId);
  });

  const STATUS_MESSAGE = "status must be one of active, dispatched, enroute, resolved, failed";
  // A body giving none of the fields PATCH takes (docs/calls.md, "Corrections").
  const NOTHING_MESSAGE = "The body must give at least one of status, emergency_type, severity, location";
  it.each([
    [{ status: "closed" }, STATUS_MESSAGE],
    [{ status: "ACTIVE" }, STATUS_MESSAGE],
    [{}, NOTHING_MESSAGE],
    [{ status: null }, STATUS_MESSAGE],
    [["dispatched"], NOTHING_MESSAGE],
    ["\"dispatched\"", NOTHING_MESSAGE],
  ])("answers 400 INVALID_PARAMETER for body %j", async (body, message) => {
    const call = await callIn("active");
    const response = await patch(call.conversationId, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message });
    expect(await history(call.conversationId)).toHaveLength(1);
  });

  it("answers 400 INVALID_JSON for malformed JSON and 415 for another content type", async () => {
    const call = await callIn("active");
    expect((await patch(call.conversationId, "{status:")).status).toBe(400);
    const wrongType = await patch(call.conversationId, { status: "dispatched" }, "text/plain");
    expect(wrongType.status).toBe(415);
    expect(await history(call.conversationId)).toHaveLength(1);
  });

  it("answers 404 NOT_FOUND for an unknown id, before looking at the transition", async () => {
    const response = await patch("no-such-call", { status: "dispatched" });
    expect(response.status).toBe(404);
    expect((await response.json()).error_code).toBe("NOT_FOUND");
  });
});
