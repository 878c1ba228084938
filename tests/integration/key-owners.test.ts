import { describe, expect, it } from "vitest";
import { POST as createKeyRoute, GET as listKeysRoute } from "@/app/api/keys/route";
import { GET as listCallsRoute } from "@/app/api/calls/route";
import { POST as createUserRoute } from "@/app/api/users/route";
import { type Actor, API_KEY_ACTOR } from "@/lib/access/actor";
import { accessVersion } from "@/lib/access/access-cache";
import { createKey } from "@/lib/access/keys";
import { removeUser, setUserRole } from "@/lib/access/people";
import { permissionsOf, type Permission } from "@/lib/access/roles";
import { apiKeyListSchema, type ApiKeyView, createdApiKeySchema } from "@/lib/access/schema";
import { getDb } from "@/lib/db/client";
import { TEST_API_KEY } from "@/tests/support/auth";
import { type SignedInPerson, signedIn, TEST_PASSWORD } from "@/tests/support/people";

/**
 * Every key belongs to a person (docs/security.md, "API keys"): removing or lowering them revokes
 * the keys beyond what remains, audited; the list shows each key's owner and last use.
 */

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const json = { "content-type": "application/json" };

const asActor = (person: SignedInPerson): Actor => ({
  kind: "user",
  id: person.user.id,
  name: person.user.name,
  role: person.user.role,
  permissions: permissionsOf(person.user.role),
});

const keyOf = (person: SignedInPerson, scopes: Permission[]) => createKey({ name: `${person.user.name} ${scopes.join("+")}`, scopes }, asActor(person));

/** Whether the key may still make an administrator (the hole: a removed administrator's key could). */
const makeAdministrator = (key: string) =>
  createUserRoute(
    new Request("http://localhost/api/users", {
      method: "POST",
      headers: { ...bearer(key), ...json },
      body: JSON.stringify({ name: "Made by a key", email: `made-${crypto.randomUUID()}@example.org`, password: TEST_PASSWORD, role: "admin" }),
    }),
    undefined,
  );

const readCalls = async (key: string) => (await listCallsRoute(new Request("http://localhost/api/calls?limit=1", { headers: bearer(key) }), undefined)).status;

async function listed(id: string): Promise<ApiKeyView> {
  const response = await listKeysRoute(new Request("http://localhost/api/keys", { headers: bearer(TEST_API_KEY) }), undefined);
  expect(response.status).toBe(200);
  return apiKeyListSchema.parse(await response.json()).keys.find((key) => key.id === id)!;
}

async function revocationsOf(keyId: string) {
  const db = await getDb();
  return db.$queryRaw<{ actor_name: string; after: { reason: string; owner_id: string } }[]>`
    SELECT actor_name, after FROM audit_events WHERE action = 'key.revoked' AND target_id = ${keyId}`;
}

describe("API keys belong to a person", () => {
  it("removing an administrator revokes their keys, the keys their keys made too: none makes an administrator any more", async () => {
    const admin = await signedIn("admin", "Leaving administrator");
    const key = await keyOf(admin, ["admin"]);
    expect((await makeAdministrator(key.key)).status).toBe(201);
    // A key made with their key is theirs as well.
    const made = await createKeyRoute(
      new Request("http://localhost/api/keys", { method: "POST", headers: { ...bearer(key.key), ...json }, body: JSON.stringify({ name: "made by a key", scopes: ["admin"] }) }),
      undefined,
    );
    expect(made.status).toBe(201);
    const second = createdApiKeySchema.parse(await made.json());

    await removeUser(admin.user.id, API_KEY_ACTOR);
    expect((await makeAdministrator(key.key)).status).toBe(401);
    expect((await makeAdministrator(second.key)).status).toBe(401);
    for (const id of [key.id, second.id]) {
      expect((await listed(id)).revoked_at).not.toBeNull();
      expect(await revocationsOf(id)).toEqual([{ actor_name: "API_KEY", after: { reason: "owner_removed", owner_id: admin.user.id } }]);
    }
    expect((await listed(second.id)).owner).toEqual({ id: admin.user.id, name: admin.user.name });
  });

  it("lowering a person revokes the keys beyond the new role and keeps the others", async () => {
    const admin = await signedIn("admin", "Lowered administrator");
    const beyond = await keyOf(admin, ["read", "admin"]);
    const within = await keyOf(admin, ["read", "dispatch"]);
    await setUserRole(admin.user.id, "dispatcher", API_KEY_ACTOR);
    expect((await makeAdministrator(beyond.key)).status).toBe(401);
    expect(await readCalls(within.key)).toBe(200);
    expect(await revocationsOf(beyond.id)).toEqual([
      { actor_name: "API_KEY", after: { reason: "owner_role_changed", owner_id: admin.user.id, role: "dispatcher" } },
    ]);
    expect(await revocationsOf(within.id)).toEqual([]);

    await setUserRole(admin.user.id, "viewer", API_KEY_ACTOR);
    expect(await readCalls(within.key)).toBe(401);
  });

  it("a service key names its owner, fits the owner's role, and goes when the owner goes", async () => {
    const owner = await signedIn("dispatcher", "Integration owner");
    const create = (scopes: Permission[], ownerId: string) =>
      createKeyRoute(
        new Request("http://localhost/api/keys", {
          method: "POST",
          headers: { ...bearer(TEST_API_KEY), ...json },
          body: JSON.stringify({ name: "CAD bridge", scopes, owner_id: ownerId }),
        }),
        undefined,
      );
    const tooMuch = await create(["read", "admin"], owner.user.id);
    expect(tooMuch.status).toBe(400);
    expect((await tooMuch.json()).error_code).toBe("INVALID_PARAMETER");
    expect((await create(["read"], "nobody-has-this-id")).status).toBe(400);

    const response = await create(["read", "dispatch"], owner.user.id);
    expect(response.status).toBe(201);
    const key = createdApiKeySchema.parse(await response.json());
    expect(key).toMatchObject({ owner: { id: owner.user.id, name: "Integration owner" }, service: true, created_by: "API_KEY" });
    expect(await readCalls(key.key)).toBe(200);
    await removeUser(owner.user.id, API_KEY_ACTOR);
    expect(await readCalls(key.key)).toBe(401);
  });

  it("API_KEY's own keys name nobody unless asked to, and keep working", async () => {
    const key = await createKey({ name: "deployment's", scopes: ["read"] }, API_KEY_ACTOR);
    expect(key).toMatchObject({ owner: null, service: false });
    expect(await readCalls(key.key)).toBe(200);
  });

  it("the list shows each key's last use, written at most once a minute and without moving access_version", async () => {
    const person = await signedIn("viewer", "Key user");
    const key = await keyOf(person, ["read"]);
    expect(await listed(key.id)).toMatchObject({ owner: { id: person.user.id, name: "Key user" }, service: false, last_used_at: null });

    const before = await accessVersion();
    expect(await readCalls(key.key)).toBe(200);
    // Written in the background: the request does not wait for it.
    let first: string | null = null;
    while (first === null) first = (await listed(key.id)).last_used_at;
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now());
    expect(await accessVersion()).toBe(before);

    for (let i = 0; i < 3; i++) expect(await readCalls(key.key)).toBe(200);
    expect((await listed(key.id)).last_used_at).toBe(first);
  });
});
