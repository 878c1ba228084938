import { withDatabase } from "../db/with-database";
import { notFound } from "../domain-error";
import type { SubscriptionView } from "./schema";
import { toSubscriptionView } from "./subscription-row";

/** GET /api/subscriptions: every subscription, newest first, with its delivery state. */
export async function listSubscriptions(): Promise<{ subscriptions: SubscriptionView[] }> {
  return withDatabase(async (db) => {
    const rows = await db.subscription.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return { subscriptions: rows.map(toSubscriptionView) };
  });
}

/** GET /api/subscriptions/{id}. */
export async function getSubscription(id: string): Promise<SubscriptionView> {
  return withDatabase(async (db) => {
    const row = await db.subscription.findUnique({ where: { id } });
    if (!row) throw notFound(`No subscription with id ${id}`);
    return toSubscriptionView(row);
  });
}
