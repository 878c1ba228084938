import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "../config";
import { DomainError } from "../domain-error";
import { log } from "../log";

/** The dashboard's cookie: proof that its browser was given the API key once. */
export const SESSION_COOKIE = "mayday_session";
/** Twelve hours: about one dispatcher shift. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** Equal-length digests compared in constant time, so neither content nor length leaks. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * The cookie holds a value derived from the key, not the key: a copied cookie works only as a
 * cookie (same-site, httpOnly), never as a Bearer key, and changing API_KEY ends every session.
 */
export function sessionToken(apiKey: string): string {
  return createHmac("sha256", apiKey).update("mayday dashboard session").digest("base64url");
}

function bearerToken(headers: Headers): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return match?.[1];
}

function cookie(headers: Headers, name: string): string | undefined {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

export function isApiKey(presented: string, apiKey: string): boolean {
  return sameSecret(presented, apiKey);
}

/** True when no key is configured, or the request carries it (Bearer) or the session cookie. */
export function hasApiKey(headers: Headers, apiKey: string | undefined): boolean {
  if (apiKey === undefined) return true;
  const bearer = bearerToken(headers);
  if (bearer !== undefined && sameSecret(bearer, apiKey)) return true;
  const session = cookie(headers, SESSION_COOKIE);
  return session !== undefined && sameSecret(session, sessionToken(apiKey));
}

/** Passes when hasApiKey does; else the 401. */
export function requireApiKey(headers: Headers, apiKey: string | undefined): void {
  if (hasApiKey(headers, apiKey)) return;
  const bearer = bearerToken(headers);
  const session = cookie(headers, SESSION_COOKIE);
  throw new DomainError(
    "UNAUTHORIZED",
    bearer === undefined && session === undefined ? "An API key is required" : "The API key is not valid",
  );
}

/** At start: an open API in production is a choice someone should see in the log. */
export function warnWhenApiIsOpen(config: Pick<Config, "API_KEY" | "NODE_ENV">): boolean {
  if (config.NODE_ENV !== "production" || config.API_KEY !== undefined) return false;
  log.warn("API_KEY is not set: /api/calls and /api/simulate are open to anyone who can reach this server");
  return true;
}
