import { z } from "zod";
import { getConfig } from "../config";
import { DomainError, invalidParameter } from "../domain-error";
import { isApiKey, SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, sessionToken } from "./api-key";

/** The body of POST /api/session. */
export const sessionRequestSchema = z.object({ api_key: z.string().min(1).max(1024) });

export function parseSessionRequest(body: unknown): z.infer<typeof sessionRequestSchema> {
  const parsed = sessionRequestSchema.safeParse(body);
  if (!parsed.success) throw invalidParameter("Invalid api_key", "api_key must be a non-empty string");
  return parsed.data;
}

/** httpOnly: scripts never see it; SameSite=Strict: no other site can make the browser send it. */
function cookieHeader(value: string, maxAge: number, secure: boolean): string {
  const attributes = [`${SESSION_COOKIE}=${value}`, "Path=/api", `Max-Age=${maxAge}`, "HttpOnly", "SameSite=Strict"];
  if (secure) attributes.push("Secure");
  return attributes.join("; ");
}

/**
 * The dashboard hands over the API key once; it gets the session cookie back. Answers the
 * Set-Cookie value, or undefined when the server sets no API_KEY (the API is open, nothing to keep).
 */
export function openSession(presentedKey: string, secure: boolean): string | undefined {
  const apiKey = getConfig().API_KEY;
  if (apiKey === undefined) return undefined;
  if (!isApiKey(presentedKey, apiKey)) {
    throw new DomainError("UNAUTHORIZED", "The API key is not valid");
  }
  return cookieHeader(sessionToken(apiKey), SESSION_MAX_AGE_SECONDS, secure);
}

/** Set-Cookie value that removes the session. */
export function closedSession(secure: boolean): string {
  return cookieHeader("", 0, secure);
}
