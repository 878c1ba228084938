import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { getConfig } from "../config";
import { RefusedAddressError } from "../net/address";
import { type Delivery, failed } from "./control";

/**
 * One JSON request to a platform's live control, its answer's body read and dropped; any status
 * but 2xx, no answer within LIVE_CONTROL_TIMEOUT_MS or a refused address is a failed delivery.
 * `lookup` is the SSRF guard's, for a URL the platform sent.
 */
export function sendControlRequest(
  url: URL,
  method: "POST" | "PATCH",
  headers: Record<string, string>,
  body: unknown,
  lookup?: LookupFunction,
): Promise<Delivery> {
  const payload = JSON.stringify(body);
  const timeoutMs = getConfig().LIVE_CONTROL_TIMEOUT_MS;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const request = client.request(url, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      ...(lookup ? { lookup } : {}),
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
