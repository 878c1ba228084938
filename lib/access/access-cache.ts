import { createHash } from "node:crypto";
import { type ChangeNotifier, createNotifier } from "../db/notifier";
import type { Actor } from "./actor";

/**
 * Who a session cookie or a key belongs to, kept in this process so that a request does not pay a
 * database round trip to learn it (docs/security.md, "Every request is checked"). Trusted only while
 * this process LISTENs to `mayday_access_changed`, which a trigger on users, sessions and api_keys
 * NOTIFYs at commit (migration access_notifications): any removal, role change, ended session or
 * revoked key anywhere empties every instance's memory, and the writer's own at once. While the
 * LISTEN connection is down nothing is trusted from memory, except that a person last confirmed here
 * may still read while the database itself cannot answer (the dashboard must learn of the outage).
 */

const ACCESS_CHANNEL = "mayday_access_changed";
/** A bound on trust should a notification ever go astray: re-checked at least this often. */
const FRESH_MS = 30_000;
const LIMIT = 10_000;

interface Entry {
  actor: Actor;
  /** When the session or key expires (ms); Infinity when it does not. */
  expiresAt: number;
  checkedAt: number;
  /** The memory's generation when the database confirmed it: trusted only within it. */
  generation: number;
}

interface AccessMemory {
  entries: Map<string, Entry>;
  /** Moves on at every change of access anywhere, and whenever notifications may have been missed. */
  generation: number;
  listening: boolean;
  notifier?: ChangeNotifier;
}

const registry = globalThis as typeof globalThis & { [key: symbol]: AccessMemory | undefined };
const MEMORY_KEY = Symbol.for("mayday.access.memory");

function memory(): AccessMemory {
  let current = registry[MEMORY_KEY];
  if (!current) {
    const created: AccessMemory = { entries: new Map(), generation: 0, listening: false };
    registry[MEMORY_KEY] = current = created;
    created.notifier = createNotifier(ACCESS_CHANNEL);
    created.notifier.start(
      () => {
        created.generation++;
        created.listening = true;
      },
      () => {
        created.listening = false;
      },
    );
  }
  return current;
}

const keyOf = (credential: string) => createHash("sha256").update(credential, "utf8").digest("base64url");

/** The actor behind `credential` (a cookie value or a Bearer token), if known here and still trusted. */
export function cachedActor(credential: string): Actor | undefined {
  const state = memory();
  if (!state.listening) return undefined;
  const entry = state.entries.get(keyOf(credential));
  const now = Date.now();
  if (!entry || entry.generation !== state.generation || entry.expiresAt <= now || now - entry.checkedAt > FRESH_MS) return undefined;
  return entry.actor;
}

/**
 * What the database just confirmed. `generation` is the memory's generation read before asking
 * the database, so a change of access that arrives meanwhile leaves the answer untrusted.
 */
export function rememberActor(credential: string, actor: Actor, expiresAt: Date | null, generation: number): void {
  const { entries } = memory();
  const key = keyOf(credential);
  entries.delete(key);
  if (entries.size >= LIMIT) entries.delete(entries.keys().next().value!);
  entries.set(key, { actor, expiresAt: expiresAt?.getTime() ?? Infinity, checkedAt: Date.now(), generation });
}

export const accessGeneration = () => memory().generation;

/** The credential stopped working (the database says so): not even for reading during an outage. */
export function forgetCredential(credential: string): void {
  memory().entries.delete(keyOf(credential));
}

/** After this process changed access: its own memory at once (others hear it from PostgreSQL). */
export function forgetAccess(): void {
  memory().generation++;
}

/** The person last confirmed here for `credential`, reading only: for while the database cannot answer. */
export function lastKnownReader(credential: string): Actor | undefined {
  const entry = memory().entries.get(keyOf(credential));
  if (!entry || entry.actor.kind !== "user" || entry.expiresAt <= Date.now()) return undefined;
  return { ...entry.actor, permissions: new Set([...entry.actor.permissions].filter((permission) => permission === "read")) };
}
