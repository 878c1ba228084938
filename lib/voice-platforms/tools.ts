import type { Config } from "../config";
import type { Platform } from "../vocabulary";
import type { Fields } from "./fields";
import type { SignatureCheck } from "./signature";

/** The two tools Mayday publishes for the voice agent (lib/on-the-line/tools.ts defines them). */
export const LIVE_TOOLS = ["report_emergency", "incident_status"] as const;
export type LiveTool = (typeof LIVE_TOOLS)[number];

export const isLiveTool = (name: unknown): name is LiveTool => (LIVE_TOOLS as readonly unknown[]).includes(name);

/** Which call a tool request is about, as the platform names it. */
export interface LiveCallIdentity {
  /** Mayday's conversation id: the post-call event's (`vapi:<id>`, `retell:<id>`, ElevenLabs' own). */
  conversationId: string;
  platform: Platform;
  agentId: string;
  /** The caller's number as the platform knows it (E.164), when it does. */
  callerPhone: string | null;
}

/** One tool the agent asked for: the platform's id of the tool call (Vapi's; else empty), its name, its arguments. */
export interface ToolCall {
  id: string;
  name: string;
  args: Fields;
}

/** A platform's tool request read: which call, the tools asked for in order, and the call's live control URL when it sends one. */
export interface ToolRequest {
  identity: LiveCallIdentity;
  calls: ToolCall[];
  controlUrl?: string;
}

/** One tool call's outcome: its answer, or why it was not run. */
export type ToolResult = { call: ToolCall; answer: unknown } | { call: ToolCall; error: string };

/** A platform's half of the live tools, in its adapter: its wire format (docs/webhook.md, "Live calls"). */
export interface LiveTools {
  /** The request's credential: its headers at once, the body as it streams in (as intake checks the platform's, or the tool's own secret). */
  startCheck(headers: Headers, config: Config): SignatureCheck;
  /**
   * The verified body read: the call and its tool calls, or null for a message that asks no tool
   * (answered with no results); `tool` is the tool a URL names. 400 MISSING_FIELDS when it is not
   * the platform's tool request.
   */
  read(body: unknown, tool?: LiveTool): ToolRequest | null;
  /**
   * Whether a failed or unknown tool call is answered in the platform's body (Vapi heeds no status
   * but 200) rather than as the request's error.
   */
  answersFailures: boolean;
  /** The platform's answer to its agent, the results in the order asked. */
  answer(results: readonly ToolResult[]): unknown;
}

/** The one tool call's answer, as the platforms that take one tool per request hand it to the agent. */
export function onlyAnswer(results: readonly ToolResult[]): unknown {
  const [result] = results;
  return result !== undefined && "answer" in result ? result.answer : undefined;
}
