import { apiRequest } from "@/tests/support/auth";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { POST } from "@/app/api/voiceagent-webhook/route";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { getObjectStore, type ObjectStore, setObjectStoreForTests } from "@/lib/storage/get-object-store";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";
import { webhookRequest } from "../support/webhook-request";
import { MANY_REQUESTS_TIMEOUT_MS } from "../support/timeouts";

/**
 * The webhook's promise, over generated payloads: every signed payload is answered 200 or 4xx,
 * never 5xx; a 200 for a call event means the call is listed by GET /api/calls; a 4xx changes
 * nothing (no row, no history, no recording, no object written). Payloads are the platform's
 * event forms with hostile values put anywhere: NUL, lone surrogates, 1e308, -1, 2^31, huge
 * strings, deep nesting, wrong types, missing parts.
 */

const SECRET = "wsec_property_secret";
const RUNS = 2_000;
const originalSecret = process.env.VOICEAGENT_WEBHOOK_SECRET;

let writes = 0;
beforeAll(() => {
  process.env.VOICEAGENT_WEBHOOK_SECRET = SECRET;
  resetConfigForTests();
  const store = getObjectStore();
  const counting: ObjectStore = {
    kind: "counting",
    get: (key) => store.get(key),
    readRange: (key, range) => store.readRange(key, range),
    list: (folder) => store.list(folder),
    delete: (key) => store.delete(key),
    checkAvailable: () => store.checkAvailable(),
    put(key, body, contentType) {
      writes += 1;
      return store.put(key, body, contentType);
    },
  };
  setObjectStoreForTests(counting);
});
afterAll(() => {
  setObjectStoreForTests(undefined);
  if (originalSecret === undefined) delete process.env.VOICEAGENT_WEBHOOK_SECRET;
  else process.env.VOICEAGENT_WEBHOOK_SECRET = originalSecret;
  resetConfigForTests();
});

// ---- Generators ------------------------------------------------------------------------------

const HUGE = "y".repeat(1024 * 1024);
const WORDS = "gas leak near the school ".repeat(11_000);
const deep = (depth: number): unknown => {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { nested: value };
  return value;
};

const hostileText = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 3 },
  {
    arbitrary: fc.constantFrom("\u0000", "a\u0000b", "\uD800", "x\uDC00y", "\uDBFF\u0000\uDFFF", "", "   ", "Structure Fire", "CRITICAL"),
    weight: 3,
  },
  // Rarer: each costs a megabyte through signing, parsing and archiving.
  { arbitrary: fc.constantFrom(HUGE, WORDS), weight: 1 },
);
const hostileNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, -1, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 3e9, 0, -0, 0.5, 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileText, weight: 4 },
  { arbitrary: hostileNumber, weight: 4 },
  { arbitrary: fc.constantFrom(null, true, false, [], {}), weight: 2 },
  { arbitrary: fc.constantFrom(deep(50), deep(2_000)), weight: 1 },
  { arbitrary: fc.anything({ maxDepth: 3 }), weight: 1 },
);

type Mutation = { pick: number; action: "set"; value: unknown } | { pick: number; action: "delete" };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ pick: fc.nat(), action: fc.constant("set" as const), value: hostileValue }), weight: 4 },
  { arbitrary: fc.record({ pick: fc.nat(), action: fc.constant("delete" as const) }), weight: 1 },
);

const FORMS = ["spec", "elevenlabs", "failure", "audio", "unknown"] as const;
type Form = (typeof FORMS)[number];

let sequence = 0;

function baseEvent(form: Form, id: string): Record<string, unknown> {
  const eventTimestamp = 1_767_225_600 + sequence;
  switch (form) {
    case "spec":
      return specCallEvent(id, { eventTimestamp });
    case "elevenlabs":
      return elevenLabsCallEvent(id, { eventTimestamp });
    case "failure":
      return {
        type: "call_initiation_failure",
        event_timestamp: eventTimestamp,
        data: {
          agent_id: "agent_911",
          conversation_id: id,
          failure_reason: "busy",
          metadata: { type: "twilio", body: { To: "+16155550199", CallStatus: "busy" } },
        },
      };
    case "audio":
      return {
        type: "post_call_audio",
        event_timestamp: eventTimestamp,
        data: { agent_id: "agent_911", conversation_id: id, full_audio: Buffer.from(`ID3 audio ${id}`).toString("base64") },
      };
    case "unknown":
      return { type: "conversation_rated", event_timestamp: eventTimestamp, data: { conversation_id: id, stars: 4 } };
  }
}

/** Paths into the event (objects and arrays included, 8 levels deep), for mutations to pick from. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (value === null || typeof value !== "object" || prefix.length >= 8) return out;
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(path);
    paths(child, path, out);
  }
  return out;
}

function mutate(event: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  for (const change of mutations) {
    const all = paths(event);
    if (all.length === 0) break;
    const path = all[change.pick % all.length];
    let parent = event as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    if (change.action === "delete") {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else {
      // A copy: the same generated object set twice would otherwise nest inside itself.
      parent[last] = structuredClone(change.value);
    }
  }
  return event;
}

const payload = fc.record({
  form: fc.constantFrom(...FORMS),
  mutations: fc.array(mutation, { maxLength: 4 }),
});

// ---- The property ----------------------------------------------------------------------------

async function counts() {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ calls: bigint; history: bigint; recordings: bigint }[]>`
    SELECT (SELECT count(*) FROM calls) AS calls, (SELECT count(*) FROM call_status_changes) AS history,
           (SELECT count(*) FROM call_recordings) AS recordings`;
  return { calls: Number(row.calls), history: Number(row.history), recordings: Number(row.recordings), writes };
}

async function listedIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += 1000) {
    const response = await listCallsRoute(apiRequest(`http://localhost/api/calls?limit=1000&offset=${offset}`), undefined);
    const body = (await response.json()) as { calls: { conversation_id: string }[]; pagination: { has_more: boolean } };
    for (const call of body.calls) ids.add(call.conversation_id);
    if (!body.pagination.has_more) return ids;
  }
}

describe("webhook property", () => {
  it(`answers ${RUNS} generated hostile payloads with 200 or 4xx; a 200 call is listed, a 4xx changes nothing`, async () => {
    const statuses = new Map<number, number>();
    const storedCalls = new Set<string>();
    await fc.assert(
      fc.asyncProperty(payload, async ({ form, mutations }) => {
        const id = `conv_prop_${++sequence}`;
        const event = mutate(baseEvent(form, id), mutations);
        const before = await counts();
        const response = await POST(webhookRequest(event, { secret: SECRET }), undefined);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status === 200 || (response.status >= 400 && response.status < 500)).toBe(true);
        if (response.status >= 400) {
          expect(await counts()).toEqual(before);
          return;
        }
        const data = event.data as { conversation_id?: unknown } | undefined;
        const isCall = event.type === "post_call_transcription" || event.type === "call_initiation_failure";
        if (isCall && typeof data?.conversation_id === "string") storedCalls.add(data.conversation_id);
      }),
      { numRuns: RUNS, seed: Number(process.env.PROPERTY_SEED ?? Date.now() % 2 ** 31), endOnFailure: true },
    );
    const listed = await listedIds();
    expect([...storedCalls].filter((conversationId) => !listed.has(conversationId))).toEqual([]);
    // The generator reaches both outcomes, so the property was not checked vacuously.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 10);
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
    expect(storedCalls.size).toBeGreaterThan(RUNS / 10);
  }, MANY_REQUESTS_TIMEOUT_MS);
});
