import { createHash, randomBytes } from "node:crypto";
import { recordAudit } from "../audit/record-audit";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { withDatabase } from "../db/with-database";
import { uuid7 } from "../db/uuid7";
import { DomainError, invalidParameter, notFound } from "../domain-error";
import { log } from "../log";
import { processPart } from "../process-parts";
import { type Actor, API_KEY_ACTOR } from "./actor";
import { isRole, type Permission, ROLE_PERMISSIONS, type Role } from "./roles";
import type { ApiKeyView, CreatedApiKey, CreateKeyRequest } from "./schema";

/**
 * Scoped API keys for integrations. A key is 32 random bytes shown once at creation; only its
 * SHA-256 is stored (a key has 256 bits of entropy, so a fast digest is enough: nothing to guess
 * from it, and a lookup is one index probe). Revocation and expiry apply on the next request on
 * every instance (access-cache.ts).
 *
 * Every key belongs to a person, its owner (docs/security.md, "API keys"): whoever made it, the
 * owner of the key that made it, or, for a service key, the person the administrator names. Its
 * scopes never exceed the owner's role: removing the owner revokes all their keys, lowering them
 * revokes those beyond the new role, in the same transaction. Only a key made with the
 * environment's API_KEY and naming nobody has no owner.
 */

export const KEY_PREFIX = "mdk_";

export const digestKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

type Tx = Pick<Db, "$queryRaw" | "$executeRaw">;

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_by: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  owner_id: string | null;
  owner_name: string | null;
  service: boolean;
  last_used_at: Date | null;
}

/** What a key's view is made of: never its digest. */
const KEY_COLUMNS = Prisma.raw("id, name, prefix, scopes, created_by, created_at, expires_at, revoked_at, owner_id, owner_name, service, last_used_at");

const toView = (row: KeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes as Permission[],
  owner: row.owner_id === null ? null : { id: row.owner_id, name: row.owner_name ?? row.owner_id },
  service: row.service,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

/** The key behind a Bearer token, if it is one of ours, unrevoked and unexpired. */
export async function findActiveKey(token: string): Promise<{ id: string; name: string; scopes: Permission[]; expiresAt: Date | null } | undefined> {
  if (!token.startsWith(KEY_PREFIX)) return undefined;
  return withDatabase(async (db) => {
    const [row] = await db.$queryRaw<{ id: string; name: string; scopes: string[]; expires_at: Date | null }[]>`
      SELECT id, name, scopes, expires_at FROM api_keys
      WHERE hash = ${digestKey(token)} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`;
    return row ? { id: row.id, name: row.name, scopes: row.scopes as Permission[], expiresAt: row.expires_at } : undefined;
  });
}

/** A key's last use is written at most this often (a request does not pay a write). */
export const LAST_USE_EVERY_MS = 60_000;
const LAST_USE_KEPT = 10_000;

interface LastUses {
  /** When this process last wrote each key's use. */
  written: Map<string, number>;
  /** Writes going, awaited when the process stops. */
  writing: Set<Promise<unknown>>;
}

const lastUses = () =>
  processPart<LastUses>(
    "key last uses",
    () => ({ written: new Map(), writing: new Set() }),
    async ({ writing }) => void (await Promise.allSettled(writing)),
  );

/**
 * Records that a key was used, at most once a minute per key: this process writes at most once a
 * minute per key, and the row only when its last use is older than that, so instances together
 * change it at most once a minute. In the background: a request never waits for it. The column is
 * not one that moves access_version (migration key_owners).
 */
export function noteKeyUse(id: string): void {
  const { written, writing } = lastUses();
  const now = Date.now();
  if (now - (written.get(id) ?? -Infinity) < LAST_USE_EVERY_MS) return;
  written.delete(id);
  if (written.size >= LAST_USE_KEPT) written.delete(written.keys().next().value!);
  written.set(id, now);
  const write = withDatabase((db) => db.$executeRaw`
    UPDATE api_keys SET last_used_at = now()
    WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - ${LAST_USE_EVERY_MS} * interval '1 millisecond')`)
    .catch((error: unknown) => log.warn({ err: error }, "a key's last use could not be recorded"))
    .finally(() => writing.delete(write));
  writing.add(write);
}

interface Owner {
  id: string;
  name: string;
  role: Role;
}

/** The person, their row share-locked so that a change of their role waits for the new key. */
async function lockOwner(tx: Tx, id: string): Promise<Owner | undefined> {
  const [row] = await tx.$queryRaw<{ id: string; name: string; role: string }[]>`SELECT id, name, role FROM users WHERE id = ${id} FOR SHARE`;
  return row && isRole(row.role) ? { id: row.id, name: row.name, role: row.role } : undefined;
}

/** Who a new key belongs to (see above); undefined for API_KEY's keys naming nobody. */
async function ownerOfNewKey(tx: Tx, request: CreateKeyRequest, actor: Actor): Promise<Owner | undefined> {
  if (request.owner_id !== undefined) {
    const named = await lockOwner(tx, request.owner_id);
    if (!named) throw invalidParameter("Invalid owner", `owner_id: nobody has the id ${request.owner_id}`);
    return named;
  }
  let ownerId: string | null = actor.kind === "user" ? actor.id : null;
  if (actor.kind === "key" && actor.id !== API_KEY_ACTOR.id) {
    const [makingKey] = await tx.$queryRaw<{ owner_id: string | null }[]>`SELECT owner_id FROM api_keys WHERE id = ${actor.id}`;
    ownerId = makingKey?.owner_id ?? null;
  }
  if (ownerId === null) return undefined;
  const owner = await lockOwner(tx, ownerId);
  // Removed since this request was authenticated: their keys are revoked, so nothing is made for them.
  if (!owner) throw new DomainError("UNAUTHORIZED", "The person this credential belongs to no longer exists");
  return owner;
}

export async function createKey(request: CreateKeyRequest, actor: Actor): Promise<CreatedApiKey> {
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const id = uuid7();
  const row = await withDatabase((db) =>
    db.$transaction(async (tx) => {
      const owner = await ownerOfNewKey(tx, request, actor);
      const beyond = owner ? request.scopes.filter((scope) => !ROLE_PERMISSIONS[owner.role].includes(scope)) : [];
      if (owner && beyond.length > 0) {
        throw invalidParameter("Invalid scopes", `scopes: ${beyond.join(", ")} exceed the owner's role (${owner.role}: ${ROLE_PERMISSIONS[owner.role].join(", ")})`);
      }
      const [created] = await tx.$queryRaw<KeyRow[]>`
        INSERT INTO api_keys (id, name, prefix, hash, scopes, created_by, expires_at, owner_id, owner_name, service)
        VALUES (${id}, ${request.name}, ${key.slice(0, KEY_PREFIX.length + 6)}, ${digestKey(key)}, ${request.scopes}::text[],
          ${actor.name}, ${request.expires_at ? new Date(request.expires_at) : null}, ${owner?.id ?? null}, ${owner?.name ?? null},
          ${request.owner_id !== undefined})
        RETURNING ${KEY_COLUMNS}`;
      await recordAudit(tx, actor, {
        action: "key.created",
        target: { kind: "key", id },
        after: { name: request.name, scopes: request.scopes, expires_at: request.expires_at ?? null, owner_id: owner?.id ?? null, service: created.service },
      });
      return created;
    }),
  );
  return { ...toView(row), key };
}

export async function listKeys(): Promise<{ keys: ApiKeyView[] }> {
  return withDatabase(async (db) => {
    const rows = await db.$queryRaw<KeyRow[]>`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at DESC, id DESC`;
    return { keys: rows.map(toView) };
  });
}

/** Revokes a key for good; revoking it again changes nothing. */
export async function revokeKey(id: string, actor: Actor): Promise<ApiKeyView> {
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<KeyRow[]>`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ${id} FOR UPDATE`;
      if (!row) throw notFound(`No key with id ${id}`);
      if (row.revoked_at) return toView(row);
      const [revoked] = await tx.$queryRaw<KeyRow[]>`UPDATE api_keys SET revoked_at = now() WHERE id = ${id} RETURNING ${KEY_COLUMNS}`;
      await recordAudit(tx, actor, { action: "key.revoked", target: { kind: "key", id }, before: { name: row.name, scopes: row.scopes } });
      return toView(revoked);
    }),
  );
}

/**
 * In the transaction that removes a person (`role` undefined) or gives them `role`: revokes every
 * key of theirs whose scopes exceed what remains, each with its audit row.
 */
export async function revokeKeysBeyond(tx: Tx, ownerId: string, role: Role | undefined, actor: Actor): Promise<void> {
  const remaining: readonly Permission[] = role ? ROLE_PERMISSIONS[role] : [];
  const revoked = await tx.$queryRaw<{ id: string; name: string; scopes: string[] }[]>`
    UPDATE api_keys SET revoked_at = now()
    WHERE owner_id = ${ownerId} AND revoked_at IS NULL AND NOT (scopes <@ ${remaining}::text[])
    RETURNING id, name, scopes`;
  for (const key of revoked) {
    await recordAudit(tx, actor, {
      action: "key.revoked",
      target: { kind: "key", id: key.id },
      before: { name: key.name, scopes: key.scopes },
      after: { reason: role ? "owner_role_changed" : "owner_removed", owner_id: ownerId, ...(role ? { role } : {}) },
    });
  }
}
