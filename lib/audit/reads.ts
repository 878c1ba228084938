import { withDatabase } from "../db/with-database";
import { type AuditedActor, recordAudit, recordRecordingPlayed } from "./record";

/**
 * A person reading a call's detail (summary, transcript) or listening to its recording: a centre
 * must answer "who listened". Keys (integrations, scripts) read in bulk and are not recorded here.
 * A detail read is one row each; a recording, fetched by a player in many range requests, one row
 * per person, recording and listening window (record.ts).
 */
export async function auditRead(actor: AuditedActor, action: "call.viewed" | "call.recording_played", conversationId: string): Promise<void> {
  if (actor.kind !== "user") return;
  await withDatabase((db) =>
    action === "call.recording_played"
      ? recordRecordingPlayed(db, actor, conversationId)
      : recordAudit(db, actor, { action, target: { kind: "call", id: conversationId } }));
}
