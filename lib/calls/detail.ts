import type { Actor } from "../access/actor";
import { auditRead } from "../audit/reads";
import { notFound } from "../domain-error";
import { archivedTranscript } from "./archived-transcript";
import { toCallDetail } from "./to-call-record";
import type { CallDetail } from "./schema";
import { withDatabase } from "../db/with-database";

/** How many other calls from the same number the detail lists. */
export const OTHER_CALLS_FROM_NUMBER = 20;

/**
 * GET /api/calls/{id}: {id} is the record's conversation_id (a simulated call's call_id), the
 * identifier every listing shows. The detail adds the other calls from the caller's number (repeat
 * callers are common in a disaster; read through the caller_phone index) and the recording, which
 * is linked by conversation_id so that audio that arrived first is found once the call exists,
 * and the transcript's turns as stored with the call (call_transcripts), or, for a call stored
 * before that table, as its archived payload holds them.
 */
export async function getCall(conversationId: string): Promise<CallDetail> {
  return withDatabase(async (db) => {
    const call = await db.call.findUnique({
      where: { conversationId },
      include: {
        history: { orderBy: [{ changedAt: "asc" }, { id: "asc" }] },
        corrections: { orderBy: [{ changedAt: "asc" }, { id: "asc" }] },
        transcript: { select: { turns: true } },
      },
    });
    if (!call) throw notFound(`No call with id ${conversationId}`);
    const [otherCalls, recording] = await Promise.all([
      call.callerPhone === null
        ? []
        : db.call.findMany({
            where: { callerPhone: call.callerPhone, id: { not: call.id } },
            orderBy: [{ occurredAt: "desc" }, { id: "asc" }],
            take: OTHER_CALLS_FROM_NUMBER,
            select: { conversationId: true, occurredAt: true, emergencyType: true, severity: true, status: true },
          }),
      db.callRecording.findUnique({ where: { conversationId }, select: { contentType: true, sizeBytes: true } }),
    ]);
    const transcript = call.transcript?.turns ?? (call.simulation ? [] : await archivedTranscript(call));
    return toCallDetail(call, { history: call.history, corrections: call.corrections, otherCalls, recording, transcript });
  });
}

/** GET /api/calls/{id} as a person or key asks it: the detail, the reading audited (lib/audit/reads.ts). */
export async function viewCall(conversationId: string, actor: Actor): Promise<CallDetail> {
  const detail = await getCall(conversationId);
  await auditRead(actor, "call.viewed", conversationId);
  return detail;
}
