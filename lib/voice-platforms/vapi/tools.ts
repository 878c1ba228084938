import { normalisePhone, TEXT_LIMITS } from "../../calls/sanitise";
import { callIdAt } from "../call-id";
import { type Fields, missingFields, objectAt, textAt, toolArguments } from "../fields";
import { platformConversationId } from "../payload-keys";
import type { LiveTools, ToolCall } from "../tools";
import { vapiControlUrl } from "./adapter";
import { VAPI_TOOL_CALLS_MAX } from "./schema";
import { startVapiCheck } from "./signature";

/** One of Vapi's tool call results: `result` (a single-line string) or `error`. */
export interface VapiToolResult {
  toolCallId: string;
  name: string;
  result?: string;
  error?: string;
}

/** A Vapi tool call as its documented forms carry it: `{id, function: {name, arguments}}` or `{id, name, parameters}`. */
function vapiToolCall(item: unknown): ToolCall {
  const call = objectAt(item);
  const fn = objectAt(call.function);
  const name = typeof fn.name === "string" ? fn.name : typeof call.name === "string" ? call.name : "";
  return { id: typeof call.id === "string" ? call.id : "", name, args: toolArguments(fn.arguments ?? call.arguments ?? call.parameters) };
}

/** The tool calls of a `tool-calls` message, in any of the lists Vapi has carried them in. */
function listedToolCalls(message: Fields): unknown[] {
  return [message.toolCallList, message.toolCalls].find(Array.isArray)
    ?? (Array.isArray(message.toolWithToolCallList) ? message.toolWithToolCallList.map((entry) => objectAt(entry).toolCall) : []);
}

/**
 * POST /api/live-calls/vapi: Vapi's `tool-calls` server message (`message.toolCallList`), with the
 * Vapi credential of POST /api/voiceagent-webhook/vapi. Answers `{results: [{toolCallId, name,
 * result}]}`, one per tool call in order; a tool Mayday does not have, or one that failed (the
 * database down), answers an `error`, since Vapi ignores any status but 200. Any other message
 * type (the tools' server URL may be the assistant's) answers no results.
 */
export const vapiTools: LiveTools = {
  startCheck: (headers, config) => startVapiCheck(headers, config),
  read(body) {
    const message = objectAt(objectAt(body).message);
    if (typeof message.type !== "string" || message.type === "") throw missingFields(["message.type"]);
    if (message.type !== "tool-calls") return null;
    const call = objectAt(message.call);
    const identity = {
      conversationId: platformConversationId("vapi", callIdAt(call.id, "message.call.id")),
      platform: "vapi" as const,
      agentId: textAt(call.assistantId ?? objectAt(message.assistant).id, TEXT_LIMITS.agentId),
      callerPhone: normalisePhone(objectAt(call.customer).number) ?? normalisePhone(objectAt(message.customer).number),
    };
    const listed = listedToolCalls(message);
    if (listed.length === 0) throw missingFields(["message.toolCallList"]);
    if (listed.length > VAPI_TOOL_CALLS_MAX) {
      throw missingFields([`message.toolCallList (${listed.length} tool calls: at most ${VAPI_TOOL_CALLS_MAX} in one message)`]);
    }
    return { identity, calls: listed.map(vapiToolCall), controlUrl: vapiControlUrl(call) };
  },
  answersFailures: true,
  answer: (results): { results: VapiToolResult[] } => ({
    results: results.map((result) =>
      "error" in result
        ? { toolCallId: result.call.id, name: result.call.name, error: result.error }
        : { toolCallId: result.call.id, name: result.call.name, result: JSON.stringify(result.answer) }),
  }),
};
