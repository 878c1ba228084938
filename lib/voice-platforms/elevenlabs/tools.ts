import { normalisePhone, TEXT_LIMITS } from "../../calls/sanitise";
import { callIdAt } from "../call-id";
import { objectAt, sameSecret, textAt } from "../fields";
import { invalidSignature } from "../signature";
import { type LiveTools, onlyAnswer } from "../tools";

/** The header an ElevenLabs server tool sends ELEVENLABS_TOOL_SECRET in (a secret of the agent's workspace). */
export const ELEVENLABS_TOOL_SECRET_HEADER = "x-mayday-tool-secret";

/** ElevenLabs' conversation ids are Mayday's as they are: without a colon, so never another platform's `vapi:<id>`. */
const ELEVENLABS_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;

/**
 * POST /api/live-calls/elevenlabs/{tool}: an ElevenLabs server (webhook) tool, one URL per tool.
 * ElevenLabs signs no tool request: the tool sends ELEVENLABS_TOOL_SECRET in
 * `x-mayday-tool-secret` (a workspace secret), and its body carries the call's identity from
 * system variables (`conversation_id` = system__conversation_id, `caller_id` = system__caller_id,
 * `agent_id` = system__agent_id) beside the agent's arguments.
 */
export const elevenLabsTools: LiveTools = {
  startCheck(headers, config) {
    const secret = config.ELEVENLABS_TOOL_SECRET;
    if (!secret) throw invalidSignature("ELEVENLABS_TOOL_SECRET is not configured: no ElevenLabs tool request can be verified");
    const sent = headers.get(ELEVENLABS_TOOL_SECRET_HEADER);
    if (sent === null) throw invalidSignature(`${ELEVENLABS_TOOL_SECRET_HEADER} is required`);
    if (!sameSecret(sent, secret)) throw invalidSignature("Credential does not match");
    // The secret proves the sender, not the body.
    return { verified: true, update() {}, verify() {} };
  },
  read(body, tool) {
    const root = objectAt(body);
    const identity = {
      conversationId: callIdAt(root.conversation_id, "conversation_id", ELEVENLABS_ID),
      platform: "elevenlabs" as const,
      agentId: textAt(root.agent_id, TEXT_LIMITS.agentId),
      callerPhone: normalisePhone(root.caller_id),
    };
    return { identity, calls: [{ id: "", name: tool ?? "", args: root }] };
  },
  answersFailures: false,
  answer: onlyAnswer,
};
