import { z } from "zod";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  apiKeyListSchema, apiKeySchema, createdApiKeySchema, createKeySchema, createUserSchema, newPersonSchema, parseCreateKey,
  parseCreateUser, parseNewPerson, parseSignIn, parseUpdateUser, setupStateSchema, signInSchema, ssoQueryParameters,
  updateUserSchema, userListSchema, userSchema, whoAmISchema,
} from "./schema";

/**
 * People, sign-in and keys' endpoints (docs/security.md).
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const accessEndpoints = {
  session: {
    path: "/api/session",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.session },
    methods: {
      POST: {
        operationId: "signIn",
        permission: "public",
        summary: "Sign in with email and password: the dashboard's session cookie",
        description:
          "200 with the person and an httpOnly, SameSite=Lax session cookie (Secure over HTTPS), valid 12 hours. " +
          "Attempts are limited per client address and per account (AUTH_LOCKOUT_ATTEMPTS per AUTH_LOCKOUT_SECONDS, " +
          "right or wrong); a locked account answers 429 TOO_MANY_ATTEMPTS until its window ends.",
        body: jsonBody({ name: "SignInRequest", schema: signInSchema }, parseSignIn, { maxBytes: 4096 }),
        responses: { 200: { description: "Signed in (Set-Cookie)", body: { name: "WhoAmI", schema: whoAmISchema } } },
        errors: ["INVALID_PARAMETER", "UNAUTHORIZED", "TOO_MANY_ATTEMPTS", "DATABASE_ERROR"],
      },
      DELETE: {
        operationId: "signOut",
        permission: "public",
        summary: "Sign out: the session ends on every instance and the cookie is cleared",
        responses: { 204: { description: "Signed out (Set-Cookie clears the cookie)" } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  sso: {
    path: "/api/session/sso",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.sso },
    methods: {
      GET: {
        operationId: "startSingleSignOn",
        permission: "public",
        summary: "Sign in with the centre's OpenID Connect provider (OIDC_ISSUER): a redirect to it",
        description:
          "302 to the provider's sign-in page, with the state cookie the callback checks. Only people an administrator " +
          "created may sign in this way (matched by email); 404 NOT_FOUND when no provider is configured.",
        query: ssoQueryParameters,
        responses: { 302: { description: "To the identity provider" } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "IDENTITY_PROVIDER_ERROR", "DATABASE_ERROR"],
      },
    },
  },

  ssoCallback: {
    path: "/api/auth/callback/:provider",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.sso },
    params: z.object({ provider: z.string().meta({ description: "The provider's id: oidc" }) }),
    methods: {
      GET: {
        operationId: "finishSingleSignOn",
        permission: "public",
        summary: "Where the identity provider sends the browser back: the session cookie and the page, or /login with the reason",
        responses: { 302: { description: "To the page asked for (signed in), or to /login?sso_error=1&error=<reason>" } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  me: {
    path: "/api/me",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "whoAmI",
        permission: "read",
        summary: "Who the request is from: the signed-in person (name, role, permissions) or the key",
        responses: { 200: { description: "The actor", body: { name: "WhoAmI", schema: whoAmISchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  setup: {
    path: "/api/setup",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.session },
    methods: {
      GET: {
        operationId: "getSetupState",
        permission: "public",
        summary: "Whether the first administrator is still to be created",
        responses: { 200: { description: "The state", body: { name: "SetupState", schema: setupStateSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "createFirstAdministrator",
        permission: "public",
        summary: "Create the first administrator: only while nobody exists (then 409 CONFLICT)",
        body: jsonBody({ name: "FirstAdministrator", schema: newPersonSchema }, parseNewPerson, { maxBytes: 4096 }),
        responses: { 201: { description: "The administrator (sign in next)", body: { name: "User", schema: userSchema } } },
        errors: ["INVALID_PARAMETER", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  users: {
    path: "/api/users",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listUsers",
        permission: "admin",
        summary: "Everyone who may sign in, with their role",
        responses: { 200: { description: "People, by name", body: { name: "UserList", schema: userListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "createUser",
        permission: "admin",
        summary: "Create a person with a role and a first password",
        body: jsonBody({ name: "CreateUser", schema: createUserSchema }, parseCreateUser, { maxBytes: 4096 }),
        responses: { 201: { description: "The person", body: { name: "User", schema: userSchema } } },
        errors: ["INVALID_PARAMETER", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  user: {
    path: "/api/users/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: z.object({ id: z.string().meta({ description: "The person's id" }) }),
    methods: {
      PATCH: {
        operationId: "updateUser",
        permission: "admin",
        summary: "Change a person's role (applies on their next request, on every instance)",
        body: jsonBody({ name: "UpdateUser", schema: updateUserSchema }, parseUpdateUser, { maxBytes: 4096 }),
        responses: { 200: { description: "The person after the change", body: { name: "User", schema: userSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "CONFLICT", "DATABASE_ERROR"],
      },
      DELETE: {
        operationId: "removeUser",
        permission: "admin",
        summary: "Remove a person: their sessions end at once; their name stays in the history and audit trail",
        responses: { 204: { description: "Removed" } },
        errors: ["NOT_FOUND", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  keys: {
    path: "/api/keys",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listKeys",
        permission: "admin",
        summary: "API keys for integrations, newest first (never the keys themselves)",
        responses: { 200: { description: "Keys", body: { name: "ApiKeyList", schema: apiKeyListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "createKey",
        permission: "admin",
        summary: "Create a scoped API key, shown once",
        description: "Scopes are permissions (read, dispatch, train, admin); the key is sent as `Authorization: Bearer <key>`.",
        body: jsonBody({ name: "CreateKey", schema: createKeySchema }, parseCreateKey, { maxBytes: 4096 }),
        responses: { 201: { description: "The key, with the secret this once", body: { name: "CreatedApiKey", schema: createdApiKeySchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  key: {
    path: "/api/keys/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: z.object({ id: z.string().meta({ description: "The key's id" }) }),
    methods: {
      DELETE: {
        operationId: "revokeKey",
        permission: "admin",
        summary: "Revoke a key: refused from the next request on, on every instance",
        responses: { 200: { description: "The key, revoked", body: { name: "ApiKey", schema: apiKeySchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
