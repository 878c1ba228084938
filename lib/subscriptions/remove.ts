import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { withDatabase } from "../db/with-database";
import { notFound } from "../domain-error";
import type { SubscriptionView } from "./schema";
import { toSubscriptionView } from "./subscription-row";

/** DELETE /api/subscriptions/{id}: gone with its delivery log; an event being sent finishes. */
export async function removeSubscription(id: string, actor: Actor): Promise<SubscriptionView> {
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const row = await tx.subscription.findUnique({ where: { id } });
      if (!row) throw notFound(`No subscription with id ${id}`);
      await tx.subscription.delete({ where: { id } });
      const view = toSubscriptionView(row);
      await recordAudit(tx, actor, { action: "subscription.removed", target: { kind: "subscription", id }, before: view });
      return view;
    }),
  );
}
