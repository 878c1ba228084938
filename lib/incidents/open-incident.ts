import type { Db } from "../db/client";
import { uuid7 } from "../db/uuid7";
import type { CallStatus } from "../vocabulary";

/**
 * A new incident for a call about to move into it (a split, a corrected call that left its
 * incident): a placeholder without calls, empty type and location, that the calls' trigger fills
 * in as the call arrives (incidents_add_calls). `splitFrom`: the incident a split takes the call
 * from. Answers its id.
 */
export async function openIncident(tx: Pick<Db, "$executeRaw">, status: CallStatus, splitFrom: string | null): Promise<string> {
  const id = uuid7();
  await tx.$executeRaw`
    INSERT INTO incidents (id, emergency_type, severity, status, location, location_key, first_call_at, last_call_at, call_count, arranged_by_hand, split_from)
    VALUES (${id}, '', '', ${status}, '', '', now(), now(), 0, ${splitFrom !== null}, ${splitFrom})`;
  return id;
}
