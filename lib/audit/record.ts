import type { Actor } from "../access/actor";
import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";
import type { AuditAction } from "./schema";

type SqlRunner = Pick<Db, "$executeRaw">;

export interface AuditEntry {
  action: AuditAction;
  target?: { kind: string; id: string };
  before?: unknown;
  after?: unknown;
}

/** Someone not (yet) known: a failed sign-in names the email that was tried. */
export interface AnonymousActor {
  kind: "anonymous";
  name: string;
  /** The account that was tried, when it exists. */
  id?: string;
  address?: string;
}

const jsonOrNull = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * The audit trail's one door: one append-only row per change. Pass the change's own transaction,
 * so the row exists exactly when the change does (a failed change leaves none).
 */
export async function recordAudit(tx: SqlRunner, actor: Actor | AnonymousActor, entry: AuditEntry): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO audit_events (id, actor_kind, actor_id, actor_name, action, target_kind, target_id, before, after, client_address)
    VALUES (${uuid7()}, ${actor.kind}, ${actor.id ?? null}, ${actor.name}, ${entry.action}, ${entry.target?.kind ?? null},
      ${entry.target?.id ?? null}, ${jsonOrNull(entry.before)}::jsonb, ${jsonOrNull(entry.after)}::jsonb, ${actor.address ?? null})`;
}
