import { getConfig } from "../config";
import { DomainError } from "../domain-error";
import { getAuth, SSO_PROVIDER, withProviderAccountUses } from "./auth";
import { SESSION_COOKIE } from "../vocabulary";
import { isRole, permissionsOf } from "./roles";
import { audit, withSecure } from "./session";

/**
 * Sign-in with the centre's OpenID Connect provider (OIDC_ISSUER; docs/security.md). better-auth
 * runs the code flow (state, PKCE, nonce, the ID token checked against the provider's keys); this
 * adds what Mayday's own sign-in has: an audit row for every sign-in and failure, and Secure cookies
 * over HTTPS. Only people an administrator created may sign in this way (lib/access/auth.ts).
 */

/** Where a browser goes, with the cookies it must keep. */
export interface Redirect {
  location: string;
  cookies: string[];
}

/** The error page of a failed sign-in with the provider: the sign-in page, which says so. */
const SSO_ERROR_PATH = "/login?sso_error=1";

export function ssoName(): string | undefined {
  const config = getConfig();
  return config.OIDC_ISSUER ? (config.OIDC_NAME ?? "single sign-on") : undefined;
}

function requireSso(): void {
  if (!ssoName()) throw new DomainError("NOT_FOUND", "Sign-in with an identity provider is not configured (OIDC_ISSUER)");
}

/** Sends the browser to the provider; it comes back to /api/auth/callback/oidc, then to `next`. */
export async function startSsoSignIn(next: string, headers: Headers, secure: boolean): Promise<Redirect> {
  requireSso();
  const auth = await getAuth();
  const { response, headers: answered } = await auth.api
    .signInSocial({
      body: { provider: SSO_PROVIDER, callbackURL: next, errorCallbackURL: SSO_ERROR_PATH, disableRedirect: true },
      headers,
      returnHeaders: true,
    })
    .catch((error: unknown) => {
      // better-auth keeps the provider pending when its discovery failed, and says so here.
      throw new DomainError("IDENTITY_PROVIDER_ERROR", "The identity provider cannot be reached; try again, or sign in with a password", { cause: error });
    });
  if (!response.url) throw new DomainError("IDENTITY_PROVIDER_ERROR", "The identity provider gave no sign-in address");
  return { location: response.url, cookies: withSecure(answered.getSetCookie(), secure) };
}

const sessionCookieOf = (cookies: string[]) => cookies.map((cookie) => cookie.split(";")[0]).find((pair) => pair.startsWith(`${SESSION_COOKIE}=`) && pair.length > SESSION_COOKIE.length + 1);

/** The provider's answer (its redirect back with a code): a session and the page, or the sign-in page with the reason. */
export async function finishSsoSignIn(request: Request, address: string, secure: boolean): Promise<Redirect> {
  requireSso();
  const auth = await getAuth();
  const { result: answer, uses } = await withProviderAccountUses(() => auth.handler(request));
  const cookies = answer.headers.getSetCookie();
  const location = answer.headers.get("location") ?? "/";
  const session = sessionCookieOf(cookies);
  const signedIn = session ? await auth.api.getSession({ headers: new Headers({ cookie: session }), query: { disableRefresh: true } }) : null;
  const role = signedIn?.user.role;
  if (!signedIn || !isRole(role)) {
    const reason = new URL(location, "http://localhost").searchParams.get("error") ?? `answer ${answer.status}`;
    await audit({ kind: "anonymous", name: ssoName() ?? SSO_PROVIDER, address }, "session.sign_in_failed", { method: "oidc", reason });
    return { location: location.includes("error=") ? location : SSO_ERROR_PATH, cookies: withSecure(cookies, secure) };
  }
  const { user } = signedIn;
  // The provider's subject names the account behind the sign-in; `linked` marks the sign-in that linked it.
  const [used] = uses;
  const account = used ? { subject: used.subject, ...(used.linked ? { linked: true } : {}) } : {};
  await audit({ kind: "user", id: user.id, name: user.name, role, permissions: permissionsOf(role), address }, "session.signed_in", { method: "oidc", ...account });
  return { location, cookies: withSecure(cookies, secure) };
}
