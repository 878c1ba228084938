import { apiRequest } from "@/tests/support/auth";
import { randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { PATCH as patchCall } from "@/app/api/calls/[id]/route";
import { POST as merge } from "@/app/api/incidents/[id]/merge/route";
import { POST as addNote } from "@/app/api/incidents/[id]/notes/route";
import { GET as getIncident, PATCH as patchIncident } from "@/app/api/incidents/[id]/route";
import { GET as incidentQueue } from "@/app/api/live/incidents/route";
import { getDb } from "@/lib/db/client";
import { groupNow } from "@/lib/incidents/grouper";
import { incidentDetailSchema } from "@/lib/incidents/schema";
import { incidentQueuePageSchema } from "@/lib/board/schema";
import { insertCalls, makeCalls } from "../support/calls";
import { type SignedInPerson, signedIn } from "../support/people";
import { withMoveDetails } from "../support/incident-moves";

/**
 * Training and real calls never mix: a merge of the two kinds is refused, the grouper never puts
 * them together, and a trainer's action is judged by every call it touches, not by the incident's
 * own flag (which is its first call's).
 */

const runId = randomInt(1_000_000);
let seed = runId;
const context = (id: string) => ({ params: Promise.resolve({ id }) });

/** One open call of the kind asked for, in an incident of its own; `at` and `spot` place it. */
async function storeCall(simulated: boolean, extra: { at?: Date; latitude?: number; longitude?: number; groupingPending?: boolean } = {}) {
  const db = await getDb();
  const [fixture] = makeCalls(40, ++seed).filter((call) => call.simulation === simulated);
  const conversationId = `conv_training_${runId}_${seed}`;
  const call = {
    ...fixture, conversationId, callId: simulated ? conversationId : null, status: "active", emergencyType: "structure_fire", occurredAt: extra.at ?? fixture.occurredAt,
    // Points grouped on distance whatever the kind: this file is about kinds, not precision.
    locationPrecision: "address_point",
    // A callback number of its own: the fixture's few simulated numbers would join calls of one
    // kind by the callback-number rule across this file's spots, wherever they are.
    callerPhone: `+1555${String(seed).padStart(7, "0")}`,
  };
  await insertCalls(db, [{ ...call, latitude: extra.latitude ?? call.latitude, longitude: extra.longitude ?? call.longitude }]);
  if (extra.groupingPending) await db.$executeRaw`UPDATE calls SET grouping_pending = true WHERE id = ${call.id}`;
  return db.call.findUniqueOrThrow({ where: { id: call.id } });
}

/** As a person's dashboard sends it. */
const asPerson = (person: SignedInPerson, url: string, method: string, body: unknown) =>
  apiRequest(url, {
    method,
    headers: { cookie: person.cookie, "sec-fetch-site": "same-origin", "content-type": "application/json" },
    body: JSON.stringify(body),
  });

let dispatcher: SignedInPerson;
let trainer: SignedInPerson;
beforeAll(async () => {
  [dispatcher, trainer] = await Promise.all([signedIn("dispatcher"), signedIn("trainer")]);
});

describe("a merge never mixes training and real calls", () => {
  it("refuses either direction with 409 TRAINING_MIX and moves nothing", async () => {
    const real = await storeCall(false);
    const training = await storeCall(true);
    for (const [into, other] of [[real.incidentId, training.incidentId], [training.incidentId, real.incidentId]]) {
      const response = await merge(asPerson(dispatcher, `http://localhost/api/incidents/${into}/merge`, "POST", { other_id: other }), context(into));
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ error_code: "TRAINING_MIX", message: expect.stringContaining("training") });
    }
    const db = await getDb();
    expect((await db.call.findUniqueOrThrow({ where: { id: real.id } })).incidentId).toBe(real.incidentId);
    expect((await db.call.findUniqueOrThrow({ where: { id: training.id } })).incidentId).toBe(training.incidentId);
    expect(await db.auditEvent.count({ where: { action: "incident.merged", targetId: { in: [real.incidentId, training.incidentId] } } })).toBe(0);
  });

  it("still merges two training incidents, and two real ones", async () => {
    for (const simulated of [true, false]) {
      const [first, second] = [await storeCall(simulated), await storeCall(simulated)];
      const response = await merge(asPerson(dispatcher, `http://localhost/api/incidents/${first.incidentId}/merge`, "POST", { other_id: second.incidentId }), context(first.incidentId));
      expect(response.status).toBe(200);
    }
  });
});

describe("a trainer's action is judged by every call it touches", () => {
  /** A training incident holding a real call too, as a merge before this rule could leave it. */
  async function mixedIncident() {
    const training = await storeCall(true);
    const real = await storeCall(false);
    const db = await getDb();
    await db.$executeRaw`UPDATE calls SET incident_id = ${training.incidentId} WHERE id = ${real.id}`;
    const incident = await db.incident.findUniqueOrThrow({ where: { id: training.incidentId } });
    expect(incident).toMatchObject({ simulation: true, callCount: 2 });
    return { incidentId: training.incidentId, real, training };
  }

  it("refuses a trainer's status move, correction and note on an incident holding a real call (403), changing nothing", async () => {
    const { incidentId, real } = await mixedIncident();
    const url = `http://localhost/api/incidents/${incidentId}`;
    for (const body of [{ status: "resolved" }, { severity: "moderate" }, { emergency_type: "gas_leak" }]) {
      const response = await patchIncident(asPerson(trainer, url, "PATCH", body), context(incidentId));
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error_code: "FORBIDDEN" });
    }
    const noted = await addNote(asPerson(trainer, `${url}/notes`, "POST", { text: "drill over" }), context(incidentId));
    expect(noted.status).toBe(403);
    const db = await getDb();
    expect(await db.call.findUniqueOrThrow({ where: { id: real.id } })).toMatchObject({ status: "active", severity: real.severity, emergencyType: "structure_fire" });
    expect(await db.incident.findUniqueOrThrow({ where: { id: incidentId } })).toMatchObject({ status: "active" });
    expect(await db.incidentNote.count({ where: { incidentId } })).toBe(0);
    // A dispatcher may.
    expect((await patchIncident(asPerson(dispatcher, url, "PATCH", withMoveDetails("dispatched")), context(incidentId))).status).toBe(200);
  });

  it("lets a trainer move, correct and write on a training-only incident and its calls, and never a real call", async () => {
    const training = await storeCall(true);
    const other = await storeCall(true);
    const incidentId = training.incidentId;
    expect((await merge(asPerson(dispatcher, `http://localhost/api/incidents/${incidentId}/merge`, "POST", { other_id: other.incidentId }), context(incidentId))).status).toBe(200);
    const url = `http://localhost/api/incidents/${incidentId}`;
    expect((await patchIncident(asPerson(trainer, url, "PATCH", { ...withMoveDetails("dispatched"), severity: "high" }), context(incidentId))).status).toBe(200);
    expect((await addNote(asPerson(trainer, `${url}/notes`, "POST", { text: "drill note" }), context(incidentId))).status).toBe(201);
    const callUrl = `http://localhost/api/calls/${training.conversationId}`;
    expect((await patchCall(asPerson(trainer, callUrl, "PATCH", { status: "enroute" }), context(training.conversationId))).status).toBe(200);

    const real = await storeCall(false);
    const realUrl = `http://localhost/api/calls/${real.conversationId}`;
    expect((await patchCall(asPerson(trainer, realUrl, "PATCH", { status: "resolved" }), context(real.conversationId))).status).toBe(403);
  });
});

describe("an incident's answers say whether it is training only, by the rule the server acts on", () => {
  /** The incident's `training` as GET /api/incidents/{id} and the incident queue's row say it. */
  async function trainingSaid(incidentId: string): Promise<{ detail: boolean; queue: boolean | undefined }> {
    const detail = incidentDetailSchema.parse(await (await getIncident(apiRequest(`http://localhost/api/incidents/${incidentId}`), context(incidentId))).json());
    let queue: boolean | undefined;
    for (let after: string | null = ""; after !== null && queue === undefined; ) {
      const cursor = after ? `&after=${encodeURIComponent(after)}` : "";
      const page = incidentQueuePageSchema.parse(await (await incidentQueue(apiRequest(`http://localhost/api/live/incidents?limit=500${cursor}`))).json());
      queue = page.incidents.find((row) => row.id === incidentId)?.training;
      after = page.next;
    }
    return { detail: detail.training, queue };
  }

  it("is true where every call is a training call, false once one is real, whatever the incident's own flag", async () => {
    const training = await storeCall(true);
    expect(await trainingSaid(training.incidentId)).toEqual({ detail: true, queue: true });
    const real = await storeCall(false);
    expect(await trainingSaid(real.incidentId)).toEqual({ detail: false, queue: false });
    // A real call inside a training incident (the incident's own flag still says simulation).
    const db = await getDb();
    await db.$executeRaw`UPDATE calls SET incident_id = ${training.incidentId} WHERE id = ${real.id}`;
    expect(await trainingSaid(training.incidentId)).toEqual({ detail: false, queue: false });
    // The trainer the answer says may not act is refused.
    const refused = await patchIncident(asPerson(trainer, `http://localhost/api/incidents/${training.incidentId}`, "PATCH", { status: "dispatched" }), context(training.incidentId));
    expect(refused.status).toBe(403);
  });
});

describe("the grouper never groups training with real calls", () => {
  it("leaves a waiting call of either kind out of the other kind's incident at the very same spot and time", async () => {
    const at = new Date(Date.UTC(2026, 5, 1, 12, runId % 60));
    const spot = { latitude: -30 - (runId % 1000) / 1000, longitude: 170 + (runId % 997) / 1000 };
    for (const simulated of [true, false]) {
      await groupNow();
      const placed = await storeCall(!simulated, { at, ...spot });
      await groupNow();
      const waiting = await storeCall(simulated, { at: new Date(at.getTime() + 60_000), ...spot, groupingPending: true });
      const sameKind = await storeCall(!simulated, { at: new Date(at.getTime() + 120_000), ...spot, groupingPending: true });
      await groupNow();
      const db = await getDb();
      const incidentOf = async (id: string) => (await db.call.findUniqueOrThrow({ where: { id } })).incidentId;
      expect(await incidentOf(waiting.id)).not.toBe(placed.incidentId);
      // The rule does group at that spot: a waiting call of the placed call's kind joins it.
      expect(await incidentOf(sameKind.id)).toBe(placed.incidentId);
      spot.latitude -= 0.5;
    }
  });
});
