import { rememberControlUrl } from "../calls/live-control";
import { getConfig } from "../config";
import { parseJson } from "../domain-error";
import { WEBHOOK_MAX_BODY_BYTES } from "../intake/limits";
import { platformConversationId } from "../intake/keys";
import { type Fields, objectAt, sameSecret, textAt } from "../intake/platforms/fields";
import { platformAdapters } from "../intake/platforms/platform-adapters";
import { vapiControlUrl } from "../intake/platforms/vapi";
import { log } from "../log";
import { missingFields } from "../webhook/payload";
import { normalisePhone, TEXT_LIMITS } from "../webhook/sanitise";
import { invalidSignature, type SignatureCheck } from "../webhook/signature";
import { payloadTooLarge } from "../webhook/spool";
import { type LiveCallIdentity, runLiveTool } from "./report";
import type { LiveStatus } from "./status";
import { isLiveTool, LIVE_TOOLS, type LiveTool, toolArguments, VAPI_TOOL_CALLS_MAX } from "./tools";

/**
 * The live tools' endpoints, one per platform in its own wire format (docs/webhook.md, "Live
 * calls"): each checks the platform's credential as intake does (the same checks, the same
 * secrets: lib/intake/platforms), the headers before the body is read, then reads which call and
 * which tool, and answers in the form the platform hands to its agent. Nothing is stored before
 * the credential checked out.
 */

/** The header an ElevenLabs server tool sends ELEVENLABS_TOOL_SECRET in (a secret of the agent's workspace). */
export const ELEVENLABS_TOOL_SECRET_HEADER = "x-mayday-tool-secret";

/** A platform's call id as Mayday's conversation ids hold it. */
const CALL_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,190}$/;
/** ElevenLabs' conversation ids are Mayday's as they are: without a colon, so never another platform's `vapi:<id>`. */
const ELEVENLABS_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;

export interface LiveDelivery {
  headers: Headers;
  /** The body exactly as received: the credential may cover these bytes. */
  body: AsyncIterable<Uint8Array>;
}

/** The body, fed to the credential's check as it streams in and checked at its end, as JSON. */
async function verifiedJson(check: SignatureCheck, body: AsyncIterable<Uint8Array>): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > WEBHOOK_MAX_BODY_BYTES) throw payloadTooLarge(`Request body exceeds ${WEBHOOK_MAX_BODY_BYTES} bytes`);
    check.update(chunk);
    chunks.push(Buffer.from(chunk));
  }
  check.verify();
  return parseJson(Buffer.concat(chunks), "replace");
}

function callIdAt(value: unknown, field: string, form = CALL_ID): string {
  if (typeof value !== "string" || !form.test(value)) throw missingFields([field]);
  return value;
}

/** One of Vapi's tool call results: `result` (a single-line string) or `error`. */
export interface VapiToolResult {
  toolCallId: string;
  name: string;
  result?: string;
  error?: string;
}

/** A Vapi tool call as its documented forms carry it: `{id, function: {name, arguments}}` or `{id, name, parameters}`. */
function vapiToolCall(item: unknown): { id: string; name: string; args: Fields } {
  const call = objectAt(item);
  const fn = objectAt(call.function);
  const name = typeof fn.name === "string" ? fn.name : typeof call.name === "string" ? call.name : "";
  return { id: typeof call.id === "string" ? call.id : "", name, args: toolArguments(fn.arguments ?? call.arguments ?? call.parameters) };
}

/**
 * POST /api/live-calls/vapi: Vapi's `tool-calls` server message (`message.toolCallList`), with the
 * Vapi credential of POST /api/voiceagent-webhook/vapi. Answers `{results: [{toolCallId, name,
 * result}]}`, one per tool call in order; a tool Mayday does not have, or one that failed (the
 * database down), answers an `error`, since Vapi ignores any status but 200. Any other
 * message type (the tools' server URL may be the assistant's) answers no results.
 */
export async function answerVapi(delivery: LiveDelivery): Promise<{ results: VapiToolResult[] }> {
  const check = platformAdapters.vapi.startCheck(delivery.headers, getConfig());
  const message = objectAt(objectAt(await verifiedJson(check, delivery.body)).message);
  if (typeof message.type !== "string" || message.type === "") throw missingFields(["message.type"]);
  if (message.type !== "tool-calls") return { results: [] };
  const call = objectAt(message.call);
  const identity: LiveCallIdentity = {
    conversationId: platformConversationId("vapi", callIdAt(call.id, "message.call.id")),
    platform: "vapi",
    agentId: textAt(call.assistantId ?? objectAt(message.assistant).id, TEXT_LIMITS.agentId),
    callerPhone: normalisePhone(objectAt(call.customer).number) ?? normalisePhone(objectAt(message.customer).number),
  };
  const listed = [message.toolCallList, message.toolCalls].find(Array.isArray)
    ?? (Array.isArray(message.toolWithToolCallList) ? message.toolWithToolCallList.map((entry) => objectAt(entry).toolCall) : []);
  if (listed.length === 0) throw missingFields(["message.toolCallList"]);
  if (listed.length > VAPI_TOOL_CALLS_MAX) {
    throw missingFields([`message.toolCallList (${listed.length} tool calls: at most ${VAPI_TOOL_CALLS_MAX} in one message)`]);
  }
  const results: VapiToolResult[] = [];
  // In order: a report and the status asked after it in the same message see the report.
  for (const { id, name, args } of listed.map(vapiToolCall)) {
    if (!isLiveTool(name)) {
      results.push({ toolCallId: id, name, error: `Unknown tool: Mayday's tools are ${LIVE_TOOLS.join(" and ")}` });
      continue;
    }
    try {
      results.push({ toolCallId: id, name, result: JSON.stringify(await runLiveTool(name, identity, args)) });
    } catch (error) {
      // Vapi ignores any answer but a 200: the agent hears that it failed, the log says why.
      log.error({ err: error, conversationId: identity.conversationId, tool: name }, "live tool call failed");
      results.push({ toolCallId: id, name, error: "The dispatch centre could not take this now: keep the caller on the line and try again" });
    }
  }
  // After the tools: the report may just have stored the call the URL belongs to.
  await rememberControlUrl(identity.conversationId, vapiControlUrl(call)).catch((error: unknown) => {
    log.warn({ err: error, conversationId: identity.conversationId }, "live control URL not kept");
  });
  return { results };
}

/**
 * POST /api/live-calls/retell: a Retell custom function (`{name, args, call}`), signed as Retell's
 * webhooks are (x-retell-signature, RETELL_API_KEY). Answers the status as JSON, which Retell hands
 * to the agent as text.
 */
export async function answerRetell(delivery: LiveDelivery): Promise<LiveStatus> {
  const check = platformAdapters.retell.startCheck(delivery.headers, getConfig());
  const root = objectAt(await verifiedJson(check, delivery.body));
  if (!isLiveTool(root.name)) throw missingFields([`name (${LIVE_TOOLS.join(" or ")})`]);
  const call = objectAt(root.call);
  const identity: LiveCallIdentity = {
    conversationId: platformConversationId("retell", callIdAt(call.call_id, "call.call_id")),
    platform: "retell",
    agentId: textAt(call.agent_id, TEXT_LIMITS.agentId),
    callerPhone: normalisePhone(call.direction === "outbound" ? call.to_number : call.from_number),
  };
  return runLiveTool(root.name, identity, toolArguments(root.args));
}

/**
 * POST /api/live-calls/elevenlabs/{tool}: an ElevenLabs server (webhook) tool, one URL per tool.
 * ElevenLabs signs no tool request: the tool sends ELEVENLABS_TOOL_SECRET in
 * `x-mayday-tool-secret` (a workspace secret), and its body carries the call's identity from
 * system variables (`conversation_id` = system__conversation_id, `caller_id` = system__caller_id,
 * `agent_id` = system__agent_id) beside the agent's arguments.
 */
export async function answerElevenLabs(tool: LiveTool, delivery: LiveDelivery): Promise<LiveStatus> {
  const secret = getConfig().ELEVENLABS_TOOL_SECRET;
  if (!secret) throw invalidSignature("ELEVENLABS_TOOL_SECRET is not configured: no ElevenLabs tool request can be verified");
  const sent = delivery.headers.get(ELEVENLABS_TOOL_SECRET_HEADER);
  if (sent === null) throw invalidSignature(`${ELEVENLABS_TOOL_SECRET_HEADER} is required`);
  if (!sameSecret(sent, secret)) throw invalidSignature("Credential does not match");
  const root = objectAt(await verifiedJson({ verified: true, update() {}, verify() {} }, delivery.body));
  const identity: LiveCallIdentity = {
    conversationId: callIdAt(root.conversation_id, "conversation_id", ELEVENLABS_ID),
    platform: "elevenlabs",
    agentId: textAt(root.agent_id, TEXT_LIMITS.agentId),
    callerPhone: normalisePhone(root.caller_id),
  };
  return runLiveTool(tool, identity, root);
}
