import { normalisePhone, TEXT_LIMITS } from "../../calls/sanitise";
import { callIdAt } from "../call-id";
import { objectAt, textAt, toolArguments } from "../fields";
import { platformConversationId } from "../payload-keys";
import { type LiveTools, onlyAnswer } from "../tools";
import { startRetellCheck } from "./signature";

/**
 * POST /api/live-calls/retell: a Retell custom function (`{name, args, call}`), signed as Retell's
 * webhooks are (x-retell-signature, RETELL_API_KEY). Answers the tool's answer as JSON, which
 * Retell hands to the agent as text.
 */
export const retellTools: LiveTools = {
  startCheck: (headers, config) => startRetellCheck(headers, config),
  read(body) {
    const root = objectAt(body);
    const call = objectAt(root.call);
    const identity = {
      conversationId: platformConversationId("retell", callIdAt(call.call_id, "call.call_id")),
      platform: "retell" as const,
      agentId: textAt(call.agent_id, TEXT_LIMITS.agentId),
      callerPhone: normalisePhone(call.direction === "outbound" ? call.to_number : call.from_number),
    };
    return { identity, calls: [{ id: "", name: typeof root.name === "string" ? root.name : "", args: toolArguments(root.args) }] };
  },
  answersFailures: false,
  answer: onlyAnswer,
};
