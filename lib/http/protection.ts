import { requireApiKey } from "../access/api-key";
import { getConfig } from "../config";
import { getRateLimiter, type RateLimitDecision } from "../rate-limit";
import { ApiError } from "./api-error";
import { clientAddress } from "./client-address";
import type { Endpoint } from "./endpoint";

/** `RateLimit-*` fields (IETF draft "RateLimit header fields"): reset in seconds from now. */
function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const resetSeconds = Math.max(0, Math.ceil((decision.resetAt - Date.now()) / 1000));
  return {
    "ratelimit-limit": String(decision.limit),
    "ratelimit-remaining": String(decision.remaining),
    "ratelimit-reset": String(resetSeconds),
  };
}

/**
 * Counts the request against its endpoint's limit. Answers the headers every response of the
 * endpoint carries; throws the 429 (or the 503 of a "refuse" policy whose store is down).
 */
export async function applyRateLimit(requestHeaders: Headers, endpoint: Endpoint): Promise<Record<string, string>> {
  const policy = endpoint.protection.rateLimit;
  if (!policy) return {};
  const client = clientAddress(requestHeaders, getConfig().TRUST_PROXY);
  const decision = await getRateLimiter().check(policy, client);
  if (decision.outcome === "unmetered") return {};
  if (decision.outcome === "unavailable") {
    throw new ApiError("SERVICE_UNAVAILABLE", "Request limits cannot be checked right now; try again shortly", {}, {
      headers: { "retry-after": "5" },
    });
  }
  const headers = rateLimitHeaders(decision);
  if (decision.outcome === "limited") {
    const message = `Too many requests (limit ${decision.limit}); retry in ${headers["ratelimit-reset"]} s`;
    // The same four fields on every endpoint, whatever its usual error format.
    throw new ApiError("RATE_LIMITED", message, { error: "Rate limit exceeded", message }, {
      headers: { ...headers, "retry-after": headers["ratelimit-reset"] },
    });
  }
  return headers;
}

/** The API key, on the endpoints that hold call data or create it. */
export function requireAccess(requestHeaders: Headers, endpoint: Endpoint): void {
  if (endpoint.protection.apiKey) requireApiKey(requestHeaders, getConfig().API_KEY);
}
