import { isAPIError } from "better-auth/api";
import { type AnonymousActor, recordAudit } from "../audit/record";
import { getConfig } from "../config";
import { withDatabase } from "../db/with-database";
import { DomainError } from "../domain-error";
import { getRateLimiter, type RateLimitPolicy } from "../rate-limit";
import type { Actor } from "./actor";
import { getAuth } from "./auth";
import { SESSION_COOKIE } from "../vocabulary";
import { isRole, permissionsOf } from "./roles";
import type { SignInRequest, WhoAmI } from "./schema";

/**
 * Signing in and out (POST and DELETE /api/session). better-auth checks the password and writes
 * the session; this adds what a dispatch centre needs around it: a per-account lock-out (the
 * registry's per-address limit counts the same attempts by client), an audit row for every
 * sign-in, failed sign-in and sign-out, and cookies marked Secure when the request came over HTTPS.
 */

/** Attempts per account and window, counted whether right or wrong: a guesser gets this few per window. */
function accountPolicy(): RateLimitPolicy {
  const config = getConfig();
  return { bucket: "sign-in-account", limit: config.AUTH_LOCKOUT_ATTEMPTS, windowMs: config.AUTH_LOCKOUT_SECONDS * 1000, whenStoreDown: "local" };
}

export interface SignedIn {
  person: WhoAmI;
  /** Set-Cookie values for the answer. */
  cookies: string[];
}

/** Cookies marked Secure when the request came over HTTPS. */
export const withSecure = (cookies: string[], secure: boolean) => (secure ? cookies.map((cookie) => `${cookie}; Secure`) : cookies);

export async function audit(actor: Actor | AnonymousActor, action: "session.signed_in" | "session.sign_in_failed" | "session.signed_out", after?: unknown) {
  await withDatabase((db) => recordAudit(db, actor, { action, ...(actor.id ? { target: { kind: "user", id: actor.id } } : {}), after }));
}

async function accountId(email: string): Promise<string | undefined> {
  return withDatabase(async (db) => (await db.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE email = ${email}`)[0]?.id);
}

export async function signIn(request: SignInRequest, headers: Headers, address: string, secure: boolean): Promise<SignedIn> {
  const decision = await getRateLimiter().check(accountPolicy(), request.email);
  if (decision.outcome === "limited") {
    const seconds = Math.max(1, Math.ceil((decision.resetAt - Date.now()) / 1000));
    await audit({ kind: "anonymous", id: await accountId(request.email), name: request.email, address }, "session.sign_in_failed", { reason: "locked" });
    throw new DomainError("TOO_MANY_ATTEMPTS", `Too many sign-in attempts for this account; try again in ${seconds} s`, {
      extra: { retry_after_seconds: seconds },
    });
  }
  const auth = await getAuth();
  const result = await auth.api
    .signInEmail({ body: { email: request.email, password: request.password }, headers, returnHeaders: true })
    .catch(async (error: unknown) => {
      if (!isAPIError(error) || error.statusCode >= 500) throw error;
      await audit({ kind: "anonymous", id: await accountId(request.email), name: request.email, address }, "session.sign_in_failed", { reason: "wrong email or password" });
      throw new DomainError("UNAUTHORIZED", "The email or password is not valid");
    });
  const { user } = result.response;
  const role = (user as { role?: unknown }).role;
  if (!isRole(role)) throw new DomainError("UNAUTHORIZED", "This account has no role");
  const actor: Actor = { kind: "user", id: user.id, name: user.name, role, permissions: permissionsOf(role), address };
  await audit(actor, "session.signed_in");
  return {
    person: { kind: "user", id: user.id, name: user.name, email: user.email, role, permissions: [...actor.permissions] },
    cookies: withSecure(result.headers.getSetCookie(), secure),
  };
}

/** Clears the cookie always; ends the session (and audits it) when there was one. */
export async function signOut(headers: Headers, address: string, secure: boolean): Promise<string[]> {
  const cleared = withSecure([`${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax`], secure);
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers, query: { disableRefresh: true } }).catch(() => null);
  if (!session) return cleared;
  await auth.api.signOut({ headers });
  const role = session.user.role;
  await audit(
    { kind: "user", id: session.user.id, name: session.user.name, role: isRole(role) ? role : undefined, permissions: new Set(), address },
    "session.signed_out",
  );
  return cleared;
}
