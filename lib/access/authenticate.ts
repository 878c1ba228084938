import { createHash, timingSafeEqual } from "node:crypto";
import { databaseError, DomainError } from "../domain-error";
import { type Actor, API_KEY_ACTOR } from "./actor";
import { getAuth } from "./auth";
import { SESSION_COOKIE } from "../vocabulary";
import { findActiveKey, noteKeyUse } from "./keys";
import { accessVersion, cachedActor, forgetCredential, lastKnownReader, rememberActor } from "./access-cache";
import { isRole, permissionsOf } from "./roles";

/** Equal-length digests compared in constant time, so neither content nor length leaks. */
function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

function bearerToken(headers: Headers): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  return match?.[1];
}

function sessionCookie(headers: Headers): string | undefined {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=");
  }
  return undefined;
}

export const hasSessionCookie = (headers: Headers) => sessionCookie(headers) !== undefined;

/**
 * The person behind a session cookie, confirmed by the database or remembered at the current
 * access version (access-cache.ts); while the database cannot answer, the person last confirmed
 * here, reading only.
 */
async function sessionActor(headers: Headers, cookie: string): Promise<Authenticated> {
  let version: bigint;
  let session;
  try {
    version = await accessVersion();
    const known = cachedActor(cookie, version);
    if (known) return { byCookie: true, ...known };
    session = await (await getAuth()).api.getSession({ headers, query: { disableRefresh: true } });
  } catch (error) {
    const reader = lastKnownReader(cookie);
    if (reader) return { byCookie: true, remembered: true, actor: reader };
    throw databaseError(error);
  }
  const role = session?.user.role;
  if (!session || !isRole(role)) {
    forgetCredential(cookie);
    throw unauthorized("The session has ended; sign in again");
  }
  const actor: Actor = { kind: "user", id: session.user.id, name: session.user.name, role, permissions: permissionsOf(role) };
  rememberActor(cookie, actor, session.session.expiresAt, version);
  return { byCookie: true, actor, expiresAt: session.session.expiresAt.getTime() };
}

/** A scoped key (mdk_...) that is neither revoked nor expired. */
async function keyActor(token: string): Promise<Authenticated> {
  const version = await accessVersion().catch((error: unknown) => {
    throw databaseError(error);
  });
  const known = cachedActor(token, version);
  if (known) {
    noteKeyUse(known.actor.id);
    return { byCookie: false, ...known };
  }
  const key = await findActiveKey(token);
  if (!key) {
    forgetCredential(token);
    throw unauthorized("The API key is not valid");
  }
  noteKeyUse(key.id);
  const actor: Actor = { kind: "key", id: key.id, name: key.name, permissions: new Set(key.scopes) };
  rememberActor(token, actor, key.expiresAt, version);
  return { byCookie: false, actor, expiresAt: key.expiresAt?.getTime() ?? Infinity };
}

const unauthorized = (message: string) => new DomainError("UNAUTHORIZED", message);

export interface Authenticated {
  actor: Actor;
  /** Authenticated by the session cookie, which a browser sends by itself: writes need a same-origin check. */
  byCookie: boolean;
  /** The database could not confirm the session: the person this process last saw, reading only. */
  remembered?: boolean;
  /** When the session or key expires (ms); Infinity when it does not, undefined when not known. */
  expiresAt?: number;
}

/**
 * Who is asking: a Bearer key (API_KEY, or a scoped key that is neither revoked nor expired) or a
 * person's session cookie. A revoked key, a removed person or a lowered role applies on the next
 * request on every instance (access-cache.ts). UNAUTHORIZED otherwise.
 */
export async function authenticate(headers: Headers, apiKey: string | undefined): Promise<Authenticated> {
  const bearer = bearerToken(headers);
  if (bearer !== undefined) {
    if (apiKey !== undefined && sameSecret(bearer, apiKey)) {
      return { byCookie: false, actor: API_KEY_ACTOR, expiresAt: Infinity };
    }
    return keyActor(bearer);
  }
  const cookie = sessionCookie(headers);
  if (cookie !== undefined) return sessionActor(headers, cookie);
  throw unauthorized("Sign in, or send an API key (Authorization: Bearer <key>)");
}

/** The actor when the request proves one, else undefined (never throws: for optional details). */
export async function optionalActor(headers: Headers, apiKey: string | undefined): Promise<Actor | undefined> {
  try {
    return (await authenticate(headers, apiKey)).actor;
  } catch {
    return undefined;
  }
}
