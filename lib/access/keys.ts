import { createHash, randomBytes } from "node:crypto";
import { recordAudit } from "../audit/record";
import { withDatabase } from "../db/with-database";
import { uuid7 } from "../db/uuid7";
import { notFound } from "../domain-error";
import type { Actor } from "./actor";
import type { Permission } from "./roles";
import type { ApiKeyView, CreatedApiKey, CreateKeyRequest } from "./schema";

/**
 * Scoped API keys for integrations. A key is 32 random bytes shown once at creation; only its
 * SHA-256 is stored (a key has 256 bits of entropy, so a fast digest is enough: nothing to guess
 * from it, and a lookup is one index probe). Revocation and expiry apply on the next request on
 * every instance, since every request looks the key up.
 */

export const KEY_PREFIX = "mdk_";

export const digestKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_by: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const toView = (row: KeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes as Permission[],
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
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

export async function createKey(request: CreateKeyRequest, actor: Actor): Promise<CreatedApiKey> {
  const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const id = uuid7();
  const row = await withDatabase((db) =>
    db.$transaction(async (tx) => {
      const [created] = await tx.$queryRaw<KeyRow[]>`
        INSERT INTO api_keys (id, name, prefix, hash, scopes, created_by, expires_at)
        VALUES (${id}, ${request.name}, ${key.slice(0, KEY_PREFIX.length + 6)}, ${digestKey(key)}, ${request.scopes}::text[],
          ${actor.name}, ${request.expires_at ? new Date(request.expires_at) : null})
        RETURNING id, name, prefix, scopes, created_by, created_at, expires_at, revoked_at`;
      await recordAudit(tx, actor, {
        action: "key.created",
        target: { kind: "key", id },
        after: { name: request.name, scopes: request.scopes, expires_at: request.expires_at ?? null },
      });
      return created;
    }),
  );
  return { ...toView(row), key };
}

export async function listKeys(): Promise<{ keys: ApiKeyView[] }> {
  return withDatabase(async (db) => {
    const rows = await db.$queryRaw<KeyRow[]>`
      SELECT id, name, prefix, scopes, created_by, created_at, expires_at, revoked_at FROM api_keys
      ORDER BY created_at DESC, id DESC`;
    return { keys: rows.map(toView) };
  });
}

/** Revokes a key for good; revoking it again changes nothing. */
export async function revokeKey(id: string, actor: Actor): Promise<ApiKeyView> {
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<KeyRow[]>`
        SELECT id, name, prefix, scopes, created_by, created_at, expires_at, revoked_at FROM api_keys WHERE id = ${id} FOR UPDATE`;
      if (!row) throw notFound(`No key with id ${id}`);
      if (row.revoked_at) return toView(row);
      const [revoked] = await tx.$queryRaw<KeyRow[]>`
        UPDATE api_keys SET revoked_at = now() WHERE id = ${id}
        RETURNING id, name, prefix, scopes, created_by, created_at, expires_at, revoked_at`;
      await recordAudit(tx, actor, { action: "key.revoked", target: { kind: "key", id }, before: { name: row.name, scopes: row.scopes } });
      return toView(revoked);
    }),
  );
}
