import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import type { SimulatedCall } from "@/lib/vocabulary";
import { expectCallsFollowTheRules, isTemplateSummary } from "../support/simulated-calls";
import { type Answer, ModelStandIn, modelSummaryFor, undispatchedSummaryFor } from "../support/model-stand-in";
import { postSimulate } from "../support/simulate-request";

const standIn = new ModelStandIn();
let origin: string;
const AI_VARIABLES = ["AI_PROVIDER", "AI_BASE_URL", "AI_MODEL", "AI_API_KEY", "AI_TIMEOUT_MS", "AI_CONCURRENCY", "AWS_REGION"];

function configure(variables: Record<string, string>): void {
  for (const name of AI_VARIABLES) delete process.env[name];
  Object.assign(process.env, variables);
  resetConfigForTests();
}

const openAiCompatible = () => ({
  AI_PROVIDER: "openai-compatible",
  AI_BASE_URL: `${origin}/v1`,
  AI_MODEL: "dispatch-writer-1",
  AI_API_KEY: "test-key",
  // Far above the stand-in's 40 ms answers, so that a loaded machine never turns them into fallbacks.
  AI_TIMEOUT_MS: "10000",
  AI_CONCURRENCY: "3",
});

async function storedCalls(tableName: string): Promise<SimulatedCall[]> {
  const rows = await (await getDb()).call.findMany({ where: { tableName } });
  for (const row of rows) expect(row.summary).toBe((row.simulatedRecord as unknown as SimulatedCall).summary);
  return rows.map((row) => row.simulatedRecord as unknown as SimulatedCall);
}

/** A run where the n-th model request is answered by `answer(n, prompt)`; returns body and stored calls. */
async function simulateWith(answer: (n: number, prompt: string) => Answer, numCalls: number, tableName: string) {
  standIn.reset(answer);
  const { status, body } = await postSimulate({ scenario: "earthquake_sf", num_calls: numCalls, table_name: tableName });
  expect(status).toBe(200);
  const calls = await storedCalls(tableName);
  expect(calls).toHaveLength(numCalls);
  expectCallsFollowTheRules(calls, "earthquake_sf");
  return { body, calls };
}

const fromModel = (call: SimulatedCall) => call.summary === modelSummaryFor(`Address: ${call.location.address}`);

beforeAll(async () => {
  origin = await standIn.start();
});
afterAll(async () => {
  configure({});
  await standIn.stop();
});
beforeEach(() => configure(openAiCompatible()));

describe("POST /api/simulate with a hosted model (OpenAI-compatible stand-in)", () => {
  it("asks the model for each summary, at most AI_CONCURRENCY at once: Hosted AI", async () => {
    const { body, calls } = await simulateWith(() => ({ kind: "summary" }), 10, "ai-ok");
    expect(body.generation_method).toBe("Hosted AI");
    expect(body).not.toHaveProperty("ai_fallbacks");
    expect(calls.every(fromModel)).toBe(true);
    expect(standIn.requests).toHaveLength(10);
    expect(standIn.maxInFlight).toBe(3);
    const [first] = standIn.requests;
    expect(first.path).toBe("/v1/chat/completions");
    expect(first.authorization).toBe("Bearer test-key");
    expect(first.body.model).toBe("dispatch-writer-1");
    expect(first.prompt).toMatch(/Address: \d+ .+, (Marina|Mission|Financial) District/);
    // What the specification asks of the model: two sentences, dispatcher style, the address, the services dispatched.
    expect(first.body.messages).toContainEqual(expect.objectContaining({ role: "system", content: expect.stringMatching(/dispatcher.*exactly two plain sentences/) }));
    expect(first.prompt).toContain("Write the two-sentence dispatcher summary. Repeat the address exactly as given, and say which emergency services were dispatched.");
    const addresses = standIn.requests.map((request) => /Address: (.+)/.exec(request.prompt)![1]).sort();
    expect(addresses).toEqual(calls.map((call) => call.location.address).sort());
  });

  it("falls back to a template for a call whose answer is slower than AI_TIMEOUT_MS", async () => {
    // AI_TIMEOUT_MS is 3 s: the slow answer would take 6 s, the others 40 ms. The service
    // gives up on it (closes its connection) instead of waiting for it.
    configure({ ...openAiCompatible(), AI_TIMEOUT_MS: "3000" });
    const { body, calls } = await simulateWith((n) => (n === 2 ? { kind: "slow", ms: 6_000 } : { kind: "summary" }), 6, "ai-slow");
    await expect.poll(() => standIn.abandoned).toBe(1);
    expect(body.generation_method).toBe("Templates (fallback)");
    expect(body.ai_fallbacks).toBe(1);
    expect(calls.filter(isTemplateSummary)).toHaveLength(1);
    expect(calls.filter(fromModel)).toHaveLength(5);
  });

  it("falls back to templates when the model answers 500, without retrying", async () => {
    const failing = { kind: "status", status: 500, body: '{"error":{"message":"overloaded"}}' } as const;
    const { body, calls } = await simulateWith((n) => (n % 3 === 0 ? failing : { kind: "summary" }), 9, "ai-500");
    expect(body.generation_method).toBe("Templates (fallback)");
    expect(body.ai_fallbacks).toBe(3);
    expect(calls.filter(isTemplateSummary)).toHaveLength(3);
    expect(standIn.requests).toHaveLength(9);
  });

  it("falls back to templates for garbage: not JSON, no choices, empty text, or text that is no summary", async () => {
    const garbage: ((prompt: string) => Answer)[] = [
      () => ({ kind: "raw", body: "<html>Bad gateway</html>" }),
      () => ({ kind: "raw", body: '{"unexpected":true}' }),
      () => ({ kind: "text", text: "" }),
      () => ({ kind: "text", text: "I cannot help with that request." }),
      // No address.
      () => ({ kind: "text", text: "Units dispatched to the scene. Everyone is safe." }),
      // The address, but no services dispatched.
      (prompt) => ({ kind: "text", text: undispatchedSummaryFor(prompt) }),
    ];
    const { body, calls } = await simulateWith((n, prompt) => garbage[n - 1]?.(prompt) ?? { kind: "summary" }, 9, "ai-garbage");
    expect(body.generation_method).toBe("Templates (fallback)");
    expect(body.ai_fallbacks).toBe(6);
    expect(calls.filter(isTemplateSummary)).toHaveLength(6);
    expect(calls.filter(fromModel)).toHaveLength(3);
  });

  it("uses templates without asking the model above 20 calls: Templates (fast mode)", async () => {
    const { body, calls } = await simulateWith(() => ({ kind: "summary" }), 21, "ai-fast");
    expect(body.generation_method).toBe("Templates (fast mode)");
    expect(body).not.toHaveProperty("ai_fallbacks");
    expect(calls.every(isTemplateSummary)).toBe(true);
    expect(standIn.requests).toHaveLength(0);
  });

  it("asks the model for exactly 20 calls", async () => {
    const { body } = await simulateWith(() => ({ kind: "summary" }), 20, "ai-twenty");
    expect(body.generation_method).toBe("Hosted AI");
    expect(standIn.requests).toHaveLength(20);
  });

  it.each([
    ["no provider", { AI_PROVIDER: "" }],
    ["provider none", { AI_PROVIDER: "none" }],
    ["no model id", { AI_MODEL: "" }],
    ["no base URL", { AI_BASE_URL: "" }],
  ])("reports templates as the fallback with %s configured", async (_, change) => {
    configure({ ...openAiCompatible(), ...change });
    const { body, calls } = await simulateWith(() => ({ kind: "summary" }), 4, `ai-none-${_.replaceAll(" ", "-")}`);
    expect(body.generation_method).toBe("Templates (fallback)");
    expect(body.ai_fallbacks).toBe(4);
    expect(calls.every(isTemplateSummary)).toBe(true);
    expect(standIn.requests).toHaveLength(0);
  });
});

describe("POST /api/simulate with Amazon Bedrock (Converse stand-in)", () => {
  it("asks the Bedrock model through the Converse API", async () => {
    configure({
      AI_PROVIDER: "bedrock",
      AI_BASE_URL: origin,
      AI_MODEL: "anthropic.claude-3-haiku-20240307-v1:0",
      AI_API_KEY: "bedrock-key",
      AWS_REGION: "us-east-1",
      AI_TIMEOUT_MS: "10000",
    });
    const { body, calls } = await simulateWith(() => ({ kind: "summary" }), 3, "ai-bedrock");
    expect(body.generation_method).toBe("Hosted AI");
    expect(calls.every(fromModel)).toBe(true);
    expect(standIn.requests.map((request) => request.path)).toEqual(
      Array(3).fill(`/model/${encodeURIComponent("anthropic.claude-3-haiku-20240307-v1:0")}/converse`),
    );
    expect(standIn.requests[0].authorization).toBe("Bearer bedrock-key");
  });
});
