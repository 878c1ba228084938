import { type Actor, API_KEY_ACTOR } from "@/lib/access/actor";
import { permissionsOf, type Role } from "@/lib/access/roles";

/** vitest.config.mts sets API_KEY to this for every test file: the administrator's key of scripts. */
export const TEST_API_KEY = "test-api-key-0123456789abcdef";

/**
 * A request as an integration sends it with the API key (Bearer), unless the init already says
 * how it authenticates.
 */
export function apiRequest(input: string | URL, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (!headers.has("authorization") && !headers.has("cookie")) headers.set("authorization", `Bearer ${TEST_API_KEY}`);
  return new Request(input, { ...init, headers });
}

/** The API_KEY's actor, for domain functions called directly. */
export const testAdmin: Actor = API_KEY_ACTOR;

/** A person of the given role, as a signed-in request would make them (for domain calls). */
export const personActor = (role: Role, name = `Test ${role}`): Actor => ({
  kind: "user",
  id: `test-${role}`,
  name,
  role,
  permissions: permissionsOf(role),
});
