import { getConfig } from "../../config";
import { addressGuard, hostOf, RefusedAddressError } from "../../net/address";
import { type ControlledCall, type Delivery, DISPATCHER_PREFIX, failed, type LiveControl, waiting } from "../control";
import { sendControlRequest } from "../control-request";

/**
 * Vapi's Live Call Control (docs.vapi.ai "Live Call Control"): a POST to the call's control URL
 * (`call.monitor.controlUrl`, kept by lib/calls/control-urls.ts), only over https, on a host under
 * VAPI_CONTROL_HOSTS, and through the SSRF guard (the connection goes to the address checked).
 */

/** What the dispatcher asks Vapi's agent to do. */
type ControlCommand = { kind: "instruction"; text: string } | { kind: "transfer"; number: string; message: string | null };

const controlGuard = addressGuard(() => getConfig().VAPI_CONTROL_ALLOW_PRIVATE_HOSTS);

/** True when `host` is one of the domains or a name under one. */
function isPublishedHost(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** The control URL when it may be called, else why not. */
async function checkedControlUrl(controlUrl: string): Promise<URL | string> {
  if (!URL.canParse(controlUrl)) return "the control URL Vapi sent is not a URL";
  const url = new URL(controlUrl);
  if (url.protocol !== "https:") return `the control URL is ${url.protocol.replace(":", "")}, not https`;
  if (url.username !== "" || url.password !== "") return "the control URL carries credentials";
  const host = hostOf(url);
  const { VAPI_CONTROL_HOSTS } = getConfig();
  if (!isPublishedHost(host, VAPI_CONTROL_HOSTS)) return `the control URL's host ${host} is not under ${VAPI_CONTROL_HOSTS.join(", ")} (VAPI_CONTROL_HOSTS)`;
  try {
    await controlGuard.check(url);
  } catch (error) {
    if (error instanceof RefusedAddressError) return `refused: ${error.message}`;
    return `the control URL's host does not resolve (${error instanceof Error ? error.message : String(error)})`;
  }
  return url;
}

/** Vapi's Live Call Control message for the command. */
function vapiMessage(command: ControlCommand): unknown {
  if (command.kind === "instruction") {
    return { type: "add-message", message: { role: "system", content: `${DISPATCHER_PREFIX}${command.text}` }, triggerResponseEnabled: true };
  }
  return { type: "transfer", destination: { type: "number", number: command.number }, ...(command.message === null ? {} : { content: command.message }) };
}

async function pushToVapi(controlUrl: string | null, command: ControlCommand): Promise<Delivery> {
  if (controlUrl === null) {
    const reason = "Vapi has not sent this call's control URL (call.monitor.controlUrl)";
    return command.kind === "instruction" ? waiting(reason) : failed(reason);
  }
  const url = await checkedControlUrl(controlUrl);
  if (typeof url === "string") return failed(url);
  const key = getConfig().VAPI_CONTROL_KEY;
  return sendControlRequest(url, "POST", key === undefined ? {} : { authorization: `Bearer ${key}` }, vapiMessage(command), controlGuard.lookup);
}

export const vapiControl: LiveControl = {
  instruct: (call: ControlledCall, text: string) => pushToVapi(call.controlUrl, { kind: "instruction", text }),
  transferRefusal: null,
  transfer: (call: ControlledCall, number: string, message: string | null) => pushToVapi(call.controlUrl, { kind: "transfer", number, message }),
};
