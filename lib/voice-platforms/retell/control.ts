import { getConfig } from "../../config";
import { DISPATCHER_PREFIX, failed, type LiveControl, waiting } from "../control";
import { sendControlRequest } from "../control-request";

const TRANSFER_REFUSAL = "Retell has no REST endpoint that transfers a live call: configure its transfer_call tool on the agent";

/**
 * Retell's update-live-call on RETELL_API_URL with RETELL_API_KEY: the instruction added to the
 * call's context, and the agent asked to answer. Without the key the instruction waits for the
 * agent's incident_status.
 */
export const retellControl: LiveControl = {
  instruct(call, text) {
    const { RETELL_API_KEY, RETELL_API_URL } = getConfig();
    if (RETELL_API_KEY === undefined) return Promise.resolve(waiting("RETELL_API_KEY is not set: the agent gets the instruction from incident_status"));
    const callId = call.conversationId.slice("retell:".length);
    const url = new URL(`v2/update-live-call/${encodeURIComponent(callId)}`, RETELL_API_URL.endsWith("/") ? RETELL_API_URL : `${RETELL_API_URL}/`);
    const body = { call_control: { additional_context: `${DISPATCHER_PREFIX}${text}`, trigger_response: true } };
    return sendControlRequest(url, "PATCH", { authorization: `Bearer ${RETELL_API_KEY}` }, body);
  },
  transferRefusal: TRANSFER_REFUSAL,
  transfer: () => Promise.resolve(failed(TRANSFER_REFUSAL)),
};
