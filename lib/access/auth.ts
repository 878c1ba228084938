import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { getConfig } from "../config";
import { type Db, getDb } from "../db/client";
import { uuid7 } from "../db/uuid7";
import { log } from "../log";
import { forgetPart, processPart } from "../process-parts";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../vocabulary";

/**
 * People's sign-in: better-auth over the project's own tables (users, sessions, accounts,
 * verifications; migration accounts_and_audit), through Prisma, so PostgreSQL and the embedded
 * PGlite alike. better-auth hashes and checks passwords (scrypt) and keeps sessions; Mayday's own
 * endpoints (lib/http/endpoints.ts) call it on the server, so every request still passes the
 * registry's protection and every change its audit row. Its HTTP handler is not mounted.
 */

/** Twelve hours: about one dispatcher shift. A session is not extended by use. */
export const SESSION_SECONDS = 12 * 60 * 60;

/**
 * The secret that signs session cookies: AUTH_SECRET, else one made once per database and kept in
 * `settings`, so every instance over the same database signs alike without any set-up.
 */
async function signingSecret(db: Db): Promise<string> {
  const configured = getConfig().AUTH_SECRET;
  if (configured) return configured;
  await db.$executeRaw`
    INSERT INTO settings (name, value) VALUES ('auth_secret', ${randomBytes(32).toString("base64url")})
    ON CONFLICT (name) DO NOTHING`;
  const [row] = await db.$queryRaw<{ value: string }[]>`SELECT value FROM settings WHERE name = 'auth_secret'`;
  return row.value;
}

/** The provider id of the centre's OpenID Connect provider: its callback is /api/auth/callback/oidc. */
export const SSO_PROVIDER = "oidc";

/**
 * Sign-in with the centre's OpenID Connect provider, when OIDC_ISSUER is set. It proves who someone
 * is; whether they may use Mayday, and with which role, stays with Mayday's administrators: only a
 * person an administrator created is signed in (matched by an email the provider has verified,
 * linked on the first sign-in; createAuth's accountLinking), so
 * a whole directory does not get to read callers' numbers and transcripts.
 */
function ssoPlugins() {
  const config = getConfig();
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return [];
  return [
    genericOAuth({
      config: [
        {
          providerId: SSO_PROVIDER,
          discoveryUrl: `${config.OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          scopes: ["openid", "email", "profile"],
          pkce: true,
          disableSignUp: true,
        },
      ],
    }),
  ];
}

/** A provider account a sign-in went through: its subject, and whether that sign-in linked it. */
export interface ProviderAccountUse {
  subject: string;
  linked: boolean;
}

const providerAccountUses = new AsyncLocalStorage<ProviderAccountUse[]>();

/** Runs better-auth's handling of a provider's callback, with the provider accounts it used. */
export async function withProviderAccountUses<T>(work: () => Promise<T>): Promise<{ result: T; uses: ProviderAccountUse[] }> {
  const uses: ProviderAccountUse[] = [];
  const result = await providerAccountUses.run(uses, work);
  return { result, uses };
}

const noteProviderAccount = (linked: boolean) => async (account: { providerId: string; accountId: string }) => {
  if (account.providerId === SSO_PROVIDER) providerAccountUses.getStore()?.push({ subject: account.accountId, linked });
};

function createAuth(db: Db, secret: string) {
  return betterAuth({
    secret,
    baseURL: getConfig().AUTH_URL,
    database: prismaAdapter(db, { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      // People are created by an administrator (POST /api/users) or at first run (POST /api/setup).
      disableSignUp: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
    },
    plugins: ssoPlugins(),
    // A provider account is linked to the person an administrator created with its email only when
    // the provider asserts `email_verified` (no trustedProviders: a directory profile's unchecked
    // address would otherwise take over that person); once linked, its subject signs in by itself.
    // The administrator vouched for the local email, so it needs no verification of its own.
    account: { accountLinking: { enabled: true, requireLocalEmailVerified: false } },
    databaseHooks: { account: { create: { after: noteProviderAccount(true) }, update: { after: noteProviderAccount(false) } } },
    user: { additionalFields: { role: { type: "string", required: false, defaultValue: "viewer", input: false } } },
    session: { expiresIn: SESSION_SECONDS, updateAge: SESSION_SECONDS, cookieCache: { enabled: false } },
    advanced: {
      cookiePrefix: "mayday",
      // Secure is added per request when it came over HTTPS (lib/access/session.ts), so a plain-HTTP
      // deployment on a closed network keeps working.
      useSecureCookies: false,
      database: { generateId: () => uuid7() },
    },
    // Mayday's own limiter counts sign-in attempts per address and per account.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // Into the service's JSON log, the message only: better-auth's arguments may hold request data.
    logger: { disabled: getConfig().NODE_ENV === "test", log: (level, message) => log[level]({ component: "better-auth" }, message) },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const AUTH_PART = "better-auth";

/** The process's better-auth instance (one per process, like the database handle). */
export function getAuth(): Promise<Auth> {
  let opening: Promise<Auth> | undefined;
  const current = processPart(AUTH_PART, () =>
    (opening = (async () => {
      const db = await getDb();
      return createAuth(db, await signingSecret(db));
    })()),
  );
  // A failed start (the database down) must not be kept.
  opening?.catch(() => forgetPart(AUTH_PART, opening));
  return current;
}

/** Tests close and reopen databases: the instance holds the old client. */
export function resetAuthForTests(): void {
  forgetPart(AUTH_PART);
}
