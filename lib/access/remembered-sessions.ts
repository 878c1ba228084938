import { createHash } from "node:crypto";
import type { Actor } from "./actor";

/**
 * The sessions this process last saw the database confirm, used only while the database cannot
 * answer: a signed-in dashboard must still learn that its database is down and how many calls wait
 * to be recorded (GET /api/health's details). Nobody can be removed or change role while the
 * database is down, so the last confirmation is the newest truth there is; even so, a remembered
 * session may only read. Per process, bounded, forgotten when the database says the session ended.
 */

const LIMIT = 10_000;

interface Remembered {
  actor: Actor;
  expiresAt: number;
}

const remembered = new Map<string, Remembered>();

const keyOf = (cookieValue: string) => createHash("sha256").update(cookieValue, "utf8").digest("base64url");

export function rememberSession(cookieValue: string, actor: Actor, expiresAt: Date): void {
  const key = keyOf(cookieValue);
  remembered.delete(key);
  if (remembered.size >= LIMIT) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, { actor, expiresAt: expiresAt.getTime() });
}

export function forgetSession(cookieValue: string): void {
  remembered.delete(keyOf(cookieValue));
}

/** The remembered person, allowed to read only, if the session had not expired. */
export function rememberedReader(cookieValue: string): Actor | undefined {
  const entry = remembered.get(keyOf(cookieValue));
  if (!entry || entry.expiresAt <= Date.now()) return undefined;
  const permissions = new Set([...entry.actor.permissions].filter((permission) => permission === "read"));
  return { ...entry.actor, permissions };
}
