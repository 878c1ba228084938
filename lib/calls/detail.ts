import { notFound } from "../domain-error";
import { toCallDetail } from "./record";
import type { CallDetail } from "./schema";
import { withCallStore } from "./store";

/**
 * GET /api/calls/{id}: {id} is the record's conversation_id (a simulated call's call_id), the
 * identifier every listing shows.
 */
export async function getCall(conversationId: string): Promise<CallDetail> {
  const call = await withCallStore((db) =>
    db.call.findUnique({
      where: { conversationId },
      include: { history: { orderBy: [{ changedAt: "asc" }, { id: "asc" }] } },
    }),
  );
  if (!call) throw notFound(`No call with id ${conversationId}`);
  return toCallDetail(call);
}
