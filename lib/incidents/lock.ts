import type { CallWrites } from "../calls/write/write-calls";
import { notFound } from "../domain-error";

/**
 * Dispatcher actions write calls, so they take the change feed's lock first, then the incident
 * rows (FOR UPDATE): the lock order of every writer of calls, and grouping waits for them.
 */
export async function lockIncident(writes: CallWrites, id: string): Promise<{ id: string; status: string; exercise_id: string | null }> {
  await writes.lockChangeFeed();
  const [incident] = await writes.tx.$queryRaw<{ id: string; status: string; exercise_id: string | null }[]>`
    SELECT id, status, exercise_id FROM incidents WHERE id = ${id} FOR UPDATE`;
  if (!incident) throw notFound(`No incident with id ${id}`);
  return incident;
}
