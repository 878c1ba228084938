import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, type LanguageModel } from "ai";
import type { Config } from "../config";
import { log } from "../log";
import type { SimulatedCall } from "../vocabulary";
import { mapWithConcurrency } from "./pool";

/** The hosted model that writes summaries, with the limits every call to it runs under. */
export interface SummaryModel {
  model: LanguageModel;
  timeoutMs: number;
  concurrency: number;
}

/**
 * Whatever the per-call timeout, all model calls of one request end by this time, so a slow model
 * cannot push the request past the 30-second limit (20 calls at 8 s in waves of 8 would).
 */
export const AI_PHASE_BUDGET_MS = 20_000;

/** The model chosen by the environment; undefined when none is configured (templates then). */
export function summaryModelFromConfig(config: Config): SummaryModel | undefined {
  const limits = { timeoutMs: config.AI_TIMEOUT_MS, concurrency: config.AI_CONCURRENCY };
  if (!config.AI_MODEL) return undefined;
  switch (config.AI_PROVIDER) {
    case "openai-compatible": {
      if (!config.AI_BASE_URL) return undefined;
      const provider = createOpenAICompatible({
        name: "openai-compatible",
        baseURL: config.AI_BASE_URL,
        apiKey: config.AI_API_KEY,
      });
      return { model: provider.chatModel(config.AI_MODEL), ...limits };
    }
    case "bedrock": {
      // Credentials: AI_API_KEY as a Bedrock API key, else the usual AWS variables (SigV4).
      const provider = createAmazonBedrock({
        region: config.AWS_REGION,
        apiKey: config.AI_API_KEY,
        baseURL: config.AI_BASE_URL,
      });
      return { model: provider(config.AI_MODEL), ...limits };
    }
    default:
      return undefined;
  }
}

const SYSTEM_PROMPT =
  "You are a 911 emergency dispatcher writing the summary of a call for the dispatch log. " +
  "Answer with exactly two plain sentences and nothing else: no heading, no quotes, no list.";

function promptFor(call: SimulatedCall): string {
  return [
    `Emergency type: ${call.emergency_type.replaceAll("_", " ")}`,
    `Severity: ${call.severity}`,
    `What the caller reported: ${call.description}`,
    `Address: ${call.location.address}`,
    "Write the two-sentence dispatcher summary. Repeat the address exactly as given, " +
      "and say which emergency services were dispatched.",
  ].join("\n");
}

/** The mention of services dispatched that the specification's summary makes. */
const DISPATCH_WORDS = /dispatch|en route|respond|units?\b|\bsent\b|on (the|their|its) way/i;
const MAX_SUMMARY_LENGTH = 600;

/** The model's answer as a summary, or undefined when it is not one (no address, or no dispatch of services). */
export function acceptSummary(text: string, call: SimulatedCall): string | undefined {
  const summary = text
    .trim()
    .replace(/^["'“]+|["'”]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const street = call.location.address.split(",")[0];
  if (summary.length === 0 || summary.length > MAX_SUMMARY_LENGTH) return undefined;
  if (!summary.includes(street) || !DISPATCH_WORDS.test(summary)) return undefined;
  return summary;
}

/**
 * One model summary per call, asked concurrently (at most `concurrency` at once, each within
 * `timeoutMs`). An entry is undefined where the model failed, timed out or answered something
 * that is not a summary: the caller keeps the template summary for that call.
 */
export async function summarizeWithModel(
  calls: readonly SimulatedCall[],
  { model, timeoutMs, concurrency }: SummaryModel,
): Promise<(string | undefined)[]> {
  const phase = AbortSignal.timeout(AI_PHASE_BUDGET_MS);
  return mapWithConcurrency(calls, concurrency, async (call, index) => {
    try {
      const { text } = await generateText({
        model,
        system: SYSTEM_PROMPT,
        prompt: promptFor(call),
        maxOutputTokens: 200,
        temperature: 0.7,
        // A retry would double the wait; the template is the fallback instead.
        maxRetries: 0,
        abortSignal: AbortSignal.any([phase, AbortSignal.timeout(timeoutMs)]),
      });
      const summary = acceptSummary(text, call);
      if (!summary) log.warn({ call: index + 1 }, "AI summary rejected, using a template");
      return summary;
    } catch (error) {
      log.warn({ call: index + 1, err: error instanceof Error ? error.message : String(error) }, "AI summary failed, using a template");
      return undefined;
    }
  });
}
