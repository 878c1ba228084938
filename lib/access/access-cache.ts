import { createHash } from "node:crypto";
import { getDb } from "../db/client";
import { processPart } from "../process-parts";
import type { Actor } from "./actor";

/**
 * Who a session cookie or a key belongs to, kept in this process so that a request does not pay
 * better-auth's session and user reads (or the key's) to learn it (docs/security.md). An entry is
 * trusted while `access_version` has not moved: a trigger on users, sessions and api_keys moves it
 * in the same transaction as any removal, role change, ended session or revoked key (migration
 * access_version), so the change applies on the next request on every instance, at the cost of one
 * primary-key read. While the database cannot answer, a person last confirmed here may still read
 * (the dashboard must learn of the outage and its backlog).
 */

const LIMIT = 10_000;

interface Entry {
  actor: Actor;
  /** When the session or key expires (ms); Infinity when it does not. */
  expiresAt: number;
  /** `access_version` read before the database confirmed the credential. */
  version: bigint;
}

function entries(): Map<string, Entry> {
  return processPart("access cache", () => new Map<string, Entry>());
}

const keyOf = (credential: string) => createHash("sha256").update(credential, "utf8").digest("base64url");

/** The current number; throws when the database cannot answer. */
export async function accessVersion(): Promise<bigint> {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ n: bigint }[]>`SELECT n FROM access_version`;
  return row.n;
}

/** The actor behind `credential` (a cookie value or a Bearer token) and its expiry, if confirmed at `version`. */
export function cachedActor(credential: string, version: bigint): Pick<Entry, "actor" | "expiresAt"> | undefined {
  const entry = entries().get(keyOf(credential));
  if (!entry || entry.version !== version || entry.expiresAt <= Date.now()) return undefined;
  return entry;
}

/** What the database confirmed, under the version read before asking it. */
export function rememberActor(credential: string, actor: Actor, expiresAt: Date | null, version: bigint): void {
  const known = entries();
  const key = keyOf(credential);
  known.delete(key);
  if (known.size >= LIMIT) known.delete(known.keys().next().value!);
  known.set(key, { actor, expiresAt: expiresAt?.getTime() ?? Infinity, version });
}

/** The credential stopped working (the database says so): not even for reading during an outage. */
export function forgetCredential(credential: string): void {
  entries().delete(keyOf(credential));
}

/** The person last confirmed here for `credential`, reading only: for while the database cannot answer. */
export function lastKnownReader(credential: string): Actor | undefined {
  const entry = entries().get(keyOf(credential));
  if (!entry || entry.actor.kind !== "user" || entry.expiresAt <= Date.now()) return undefined;
  return { ...entry.actor, permissions: new Set([...entry.actor.permissions].filter((permission) => permission === "read")) };
}
