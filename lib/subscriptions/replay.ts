import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { withDatabase } from "../db/with-database";
import { invalidParameter, notFound } from "../domain-error";
import { type FeedPosition, readFeedHead } from "../feed";
import type { SubscriptionView } from "./schema";
import { toSubscriptionView } from "./subscription-row";

/**
 * POST /api/subscriptions/{id}/replay?after=<change>: the subscription's cursor goes back
 * (or forward) to `after`, so every event of the changes after it is sent again (with the same
 * webhook-ids), in change order; a scheduled retry is cleared. A worker serving it stops at its
 * next step (its updates are conditional on the cursor it read).
 */
export async function replaySubscription(id: string, after: FeedPosition, actor: Actor): Promise<SubscriptionView> {
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const head = await readFeedHead(tx);
      if (after > head) throw invalidParameter("Invalid after", `after must not be above the feed's latest change (${head})`);
      const row = await tx.subscription.findUnique({ where: { id } });
      if (!row) throw notFound(`No subscription with id ${id}`);
      const updated = await tx.subscription.update({
        where: { id },
        data: { cursor: BigInt(after), cursorSent: [], attempt: 0, nextAttemptAt: null, updatedAt: new Date() },
      });
      await recordAudit(tx, actor, {
        action: "subscription.replayed",
        target: { kind: "subscription", id },
        before: { cursor: Number(row.cursor) },
        after: { cursor: after },
      });
      return toSubscriptionView(updated);
    }),
  );
}
