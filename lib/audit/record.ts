import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { uuid7 } from "../db/uuid7";
import type { AuditAction } from "./schema";

type SqlRunner = Pick<Db, "$executeRaw">;

export interface AuditEntry {
  action: AuditAction;
  target?: { kind: string; id: string };
  before?: unknown;
  after?: unknown;
}

/**
 * Who a row names: what the trail keeps of an actor (lib/access/actor.ts Actor is one), a person
 * or a key, and the client's address.
 */
export interface AuditedActor {
  kind: "user" | "key";
  id: string;
  name: string;
  address?: string;
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

const insertRow = (actor: AuditedActor | AnonymousActor, entry: Omit<AuditEntry, "after">, after: Prisma.Sql) => Prisma.sql`
  INSERT INTO audit_events (id, actor_kind, actor_id, actor_name, action, target_kind, target_id, before, after, client_address)
  VALUES (${uuid7()}, ${actor.kind}, ${actor.id ?? null}, ${actor.name}, ${entry.action}, ${entry.target?.kind ?? null},
    ${entry.target?.id ?? null}, ${jsonOrNull(entry.before)}::jsonb, ${after}, ${actor.address ?? null})`;

/**
 * The audit trail's one door: one append-only row per change. Pass the change's own transaction,
 * so the row exists exactly when the change does (a failed change leaves none).
 */
export async function recordAudit(tx: SqlRunner, actor: AuditedActor | AnonymousActor, entry: AuditEntry): Promise<void> {
  await tx.$executeRaw(insertRow(actor, entry, Prisma.sql`${jsonOrNull(entry.after)}::jsonb`));
}

/** A person's listening: the window, on the database's clock, within which their plays of one recording are one row. */
export const RECORDING_PLAY_WINDOW_SECONDS = 600;

/**
 * A person's playing of a call's recording, once per person, recording and window whatever range
 * the player asks for first: the row names its window (`after.window_start`, Unix seconds) and the
 * unique index audit_events_recording_play_window_key refuses a second one, on every instance, so
 * each range request costs one INSERT that usually finds its key taken.
 */
export async function recordRecordingPlayed(db: SqlRunner, actor: AuditedActor, conversationId: string): Promise<void> {
  const window = RECORDING_PLAY_WINDOW_SECONDS;
  const entry = { action: "call.recording_played", target: { kind: "call", id: conversationId } } as const;
  const after = Prisma.sql`jsonb_build_object('window_start', floor(extract(epoch FROM now()) / ${window})::bigint * ${window})`;
  await db.$executeRaw`${insertRow(actor, entry, after)} ON CONFLICT DO NOTHING`;
}
