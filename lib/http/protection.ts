import type { Actor } from "../access/actor";
import { authenticate } from "../access/authenticate";
import { type Requirement, satisfies } from "../access/roles";
import { getConfig } from "../config";
import { databaseError, DomainError } from "../domain-error";
import { getRateLimiter, type RateLimitDecision } from "../rate-limit/get-rate-limiter";
import { ApiError } from "./api-error";
import { clientAddress } from "./client-address";
import type { Endpoint } from "../contract/endpoint";

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

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A browser sends the session cookie by itself, so a write authenticated by it must come from a
 * page of this site: Fetch Metadata (`Sec-Fetch-Site`) when the browser sends it, else `Origin`
 * against the host. A request with neither did not come from a browser's cross-site form or fetch.
 */
function requireSameOrigin(headers: Headers): void {
  const site = headers.get("sec-fetch-site");
  if (site !== null) {
    if (site === "same-origin" || site === "none") return;
  } else {
    const origin = headers.get("origin");
    if (origin === null) return;
    const host = headers.get("x-forwarded-host") ?? headers.get("host");
    try {
      if (host !== null && new URL(origin).host === host) return;
    } catch {
      // An unparsable Origin is refused below.
    }
  }
  throw new DomainError("FORBIDDEN", "A signed-in write must come from this site's own pages");
}

/**
 * Who may call the operation (its `permission` in lib/http/endpoints.ts): undefined for a public
 * one; else the actor, with the client's address for the audit trail. UNAUTHORIZED without valid
 * credentials, FORBIDDEN when the actor's role or key scopes lack the permission.
 */
export async function authorize(headers: Headers, method: string, requirement: Requirement): Promise<Actor | undefined> {
  if (requirement === "public") return undefined;
  const config = getConfig();
  const { actor, byCookie, remembered } = await authenticate(headers, config.API_KEY);
  if (!satisfies(actor.permissions, requirement)) {
    // Only reads go on while the database cannot confirm who is asking; the write could not either.
    if (remembered) throw databaseError(undefined);
    const needed = typeof requirement === "string" ? requirement : requirement.join(" or ");
    throw new DomainError("FORBIDDEN", `This needs the ${needed} permission, which ${actor.kind === "user" ? `the ${actor.role} role` : "this key"} lacks`);
  }
  if (byCookie && !SAFE_METHODS.has(method)) requireSameOrigin(headers);
  return { ...actor, address: clientAddress(headers, config.TRUST_PROXY) };
}
