import type { Db } from "../db/client";
import { withDatabase } from "../db/with-database";

/**
 * What the voice agent may tell the caller (the `incident_status` tool, and the answer of every
 * `report_emergency`): whether help is dispatched, how many others reported the same emergency,
 * and the latest instruction a dispatcher wrote for the agent on this call (./instruction.ts).
 */
export interface LiveStatus {
  /** Whether the dispatch centre has this call (false before the first `report_emergency`). */
  reported: boolean;
  help_dispatched: boolean;
  /** The other calls in the same incident. */
  others_reporting: number;
  instruction: string | null;
}

/** Statuses in which help is on its way (lib/calls/workflow.ts). */
const HELP_DISPATCHED = new Set(["dispatched", "enroute"]);

export const NOT_REPORTED: LiveStatus = { reported: false, help_dispatched: false, others_reporting: 0, instruction: null };

/** One read by the call's unique conversation id, its incident's primary key and the instructions' (call, time) index. */
export async function readLiveStatus(db: Pick<Db, "$queryRaw">, conversationId: string): Promise<LiveStatus> {
  const [row] = await db.$queryRaw<{ call_status: string; incident_status: string | null; call_count: number | null; instruction: string | null }[]>`
    SELECT c.status AS call_status, i.status AS incident_status, i.call_count,
      (SELECT l.text FROM live_instructions l WHERE l.call_id = c.id ORDER BY l.created_at DESC, l.id DESC LIMIT 1) AS instruction
    FROM calls c LEFT JOIN incidents i ON i.id = c.incident_id
    WHERE c.conversation_id = ${conversationId}`;
  if (!row) return NOT_REPORTED;
  return {
    reported: true,
    help_dispatched: HELP_DISPATCHED.has(row.call_status) || (row.incident_status !== null && HELP_DISPATCHED.has(row.incident_status)),
    others_reporting: Math.max(0, Number(row.call_count ?? 1) - 1),
    instruction: row.instruction,
  };
}

export const liveStatus = (conversationId: string): Promise<LiveStatus> => withDatabase((db) => readLiveStatus(db, conversationId));
