import { withDatabase } from "../db/with-database";
import { notFound } from "../domain-error";
import type { EventType } from "./event-types";
import type { DeliveryPage } from "./schema";

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  change: bigint;
  attempt: number;
  status: number | null;
  latency_ms: number;
  error: string | null;
  at: Date;
}

/**
 * GET /api/subscriptions/{id}/deliveries: every attempt, newest first, keyset-paged (the log keeps
 * SUBSCRIPTION_DELIVERY_LOG_DAYS days).
 */
export async function listDeliveries(id: string, limit: number, cursor: string | undefined): Promise<DeliveryPage> {
  return withDatabase(async (db) => {
    const exists = await db.subscription.findUnique({ where: { id }, select: { id: true } });
    if (!exists) throw notFound(`No subscription with id ${id}`);
    const rows = cursor
      ? await db.$queryRaw<DeliveryRow[]>`
          SELECT id, event_id, event_type, change, attempt, status, latency_ms, error, at FROM subscription_deliveries
          WHERE subscription_id = ${id} AND (at, id) < (SELECT at, id FROM subscription_deliveries WHERE id = ${cursor})
          ORDER BY at DESC, id DESC LIMIT ${limit + 1}`
      : await db.$queryRaw<DeliveryRow[]>`
          SELECT id, event_id, event_type, change, attempt, status, latency_ms, error, at FROM subscription_deliveries
          WHERE subscription_id = ${id} ORDER BY at DESC, id DESC LIMIT ${limit + 1}`;
    const page = rows.slice(0, limit);
    return {
      deliveries: page.map((row) => ({
        id: row.id,
        event_id: row.event_id,
        event_type: row.event_type as EventType,
        change: Number(row.change),
        attempt: row.attempt,
        status: row.status,
        latency_ms: row.latency_ms,
        error: row.error,
        at: row.at.toISOString(),
      })),
      next_cursor: rows.length > limit ? page.at(-1)!.id : null,
    };
  });
}
