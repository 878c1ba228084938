import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { getConfig } from "../config";
import { addressGuard, hostOf, RefusedAddressError } from "../net/address";
import type { Platform } from "../vocabulary";

/**
 * The platforms' live call control (docs/webhook.md, "Live calls"; docs/security.md, "Live
 * control"): how a dispatcher's instruction or transfer reaches the agent while the caller is on
 * the line. Vapi: a POST to the call's control URL (`call.monitor.controlUrl`, kept by
 * lib/calls/live-control.ts), only over https, on a host under VAPI_CONTROL_HOSTS, and through the
 * SSRF guard (the connection goes to the address checked). Retell: update-live-call on
 * RETELL_API_URL with RETELL_API_KEY. ElevenLabs: none without its enterprise monitor socket, so
 * the instruction waits for the agent's incident_status. Each push is cut off after
 * LIVE_CONTROL_TIMEOUT_MS; a platform's failure is an outcome, never an exception.
 */

/** What became of a push: through the platform, waiting for the agent to ask (incident_status), or failed. */
export type DeliveryOutcome = "pushed" | "waiting" | "failed";
export const DELIVERY_OUTCOMES = ["pushed", "waiting", "failed"] as const satisfies readonly DeliveryOutcome[];

export interface Delivery {
  outcome: DeliveryOutcome;
  /** Why it waits or failed; null once pushed. */
  reason: string | null;
}

/** A call as live control sees it. */
export interface ControlledCall {
  conversationId: string;
  platform: Platform;
  onLine: boolean;
  /** The latest control URL the platform sent (Vapi), or null. */
  controlUrl: string | null;
}

/** What the dispatcher asks the agent's platform to do. */
export type ControlCommand = { kind: "instruction"; text: string } | { kind: "transfer"; number: string; message: string | null };

/** How the agent knows a system message comes from the dispatch centre, not from the caller. */
export const DISPATCHER_PREFIX = "Instruction from the emergency dispatcher (follow it, do not read this line aloud): ";

const controlGuard = addressGuard(() => getConfig().VAPI_CONTROL_ALLOW_PRIVATE_HOSTS);

const waiting = (reason: string): Delivery => ({ outcome: "waiting", reason });
const failed = (reason: string): Delivery => ({ outcome: "failed", reason });

/** True when `host` is one of the domains or a name under one. */
function isPublishedHost(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return domains.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** The Vapi control URL when it may be called, else why not. */
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

/** One JSON request, its answer's body read and dropped; any status but 2xx, a timeout or a refused address is a failure. */
function send(url: URL, method: "POST" | "PATCH", headers: Record<string, string>, body: unknown, guarded: boolean): Promise<Delivery> {
  const payload = JSON.stringify(body);
  const timeoutMs = getConfig().LIVE_CONTROL_TIMEOUT_MS;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const request = client.request(url, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      ...(guarded ? { lookup: controlGuard.lookup } : {}),
      headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)), "user-agent": "Mayday-LiveControl/1" },
    }, (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      response.resume();
      response.on("end", () => resolve(status >= 200 && status <= 299 ? { outcome: "pushed", reason: null } : failed(`the platform answered HTTP ${status}`)));
      response.on("error", () => resolve(failed("the platform's answer broke off")));
    });
    request.on("error", (error: Error) => {
      if (error.name === "AbortError" || error.name === "TimeoutError") resolve(failed(`no answer within ${timeoutMs} ms`));
      else if (error instanceof RefusedAddressError) resolve(failed(`refused: ${error.message}`));
      else resolve(failed(`the platform could not be reached (${error.message})`));
    });
    request.end(payload);
  });
}

/** Vapi's Live Call Control message for the command (docs.vapi.ai "Live Call Control"). */
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
  return send(url, "POST", key === undefined ? {} : { authorization: `Bearer ${key}` }, vapiMessage(command), true);
}

/** Retell's update-live-call: the instruction added to the call's context, and the agent asked to answer. */
async function pushToRetell(conversationId: string, text: string): Promise<Delivery> {
  const { RETELL_API_KEY, RETELL_API_URL } = getConfig();
  if (RETELL_API_KEY === undefined) return waiting("RETELL_API_KEY is not set: the agent gets the instruction from incident_status");
  const callId = conversationId.slice("retell:".length);
  const url = new URL(`v2/update-live-call/${encodeURIComponent(callId)}`, RETELL_API_URL.endsWith("/") ? RETELL_API_URL : `${RETELL_API_URL}/`);
  const body = { call_control: { additional_context: `${DISPATCHER_PREFIX}${text}`, trigger_response: true } };
  return send(url, "PATCH", { authorization: `Bearer ${RETELL_API_KEY}` }, body, false);
}

/**
 * A dispatcher's instruction through the platform's live control, while the call is on the line;
 * otherwise (or on ElevenLabs) it waits for the agent's incident_status, where it is kept anyway.
 */
export function pushInstruction(call: ControlledCall, text: string): Promise<Delivery> {
  if (!call.onLine) return Promise.resolve(waiting("the call is not on the line"));
  switch (call.platform) {
    case "vapi":
      return pushToVapi(call.controlUrl, { kind: "instruction", text });
    case "retell":
      return pushToRetell(call.conversationId, text);
    case "elevenlabs":
      return Promise.resolve(waiting("ElevenLabs offers no live control outside its enterprise monitor socket: the agent gets it from incident_status"));
  }
}

/** Platforms a transfer can be asked of from outside the call, and why the others cannot. */
export const TRANSFER_REFUSALS: Readonly<Record<Exclude<Platform, "vapi">, string>> = {
  retell: "Retell has no REST endpoint that transfers a live call: configure its transfer_call tool on the agent",
  elevenlabs: "ElevenLabs transfers only through its enterprise monitor socket or the agent's own transfer tool",
};

/** A transfer of the caller to a human number through Vapi's live control (the caller checks the platform and the line). */
export function pushTransfer(call: ControlledCall, number: string, message: string | null): Promise<Delivery> {
  return pushToVapi(call.controlUrl, { kind: "transfer", number, message });
}
