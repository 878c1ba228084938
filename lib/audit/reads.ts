import type { Actor } from "../access/actor";
import { withDatabase } from "../db/with-database";
import { recordAudit } from "./record";

/**
 * A person reading a call's detail (summary, transcript) or listening to its recording: a centre
 * must answer "who listened". Keys (integrations, scripts) read in bulk and are not recorded here.
 */
export async function auditRead(actor: Actor, action: "call.viewed" | "call.recording_played", conversationId: string): Promise<void> {
  if (actor.kind !== "user") return;
  await withDatabase((db) => recordAudit(db, actor, { action, target: { kind: "call", id: conversationId } }));
}
