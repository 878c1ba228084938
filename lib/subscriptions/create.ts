import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { withDatabase } from "../db/with-database";
import { uuid7 } from "../db/uuid7";
import { readFeedHead } from "../feed";
import { checkTarget } from "./address";
import type { CreateSubscriptionRequest, SubscriptionWithSecret } from "./schema";
import { newSecret, toSubscriptionView } from "./subscription-row";

/**
 * POST /api/subscriptions: the subscription starts at the head of the change feed (events of
 * changes from now on; replay sends older ones). Its secret is in this answer only.
 */
export async function createSubscription(request: CreateSubscriptionRequest, actor: Actor): Promise<SubscriptionWithSecret> {
  await checkTarget(request.url);
  const id = uuid7();
  const secret = newSecret();
  const row = await withDatabase((db) =>
    db.$transaction(async (tx) => {
      const head = BigInt(await readFeedHead(tx));
      const created = await tx.subscription.create({
        data: {
          id,
          name: request.name,
          url: request.url,
          eventTypes: request.event_types,
          filterScenario: request.filters?.scenario ?? null,
          filterSimulation: request.filters?.simulation ?? null,
          filterSeverities: request.filters?.severities ?? [],
          bodyFormat: request.body_format,
          secret,
          enabled: request.enabled,
          cursor: head,
          createdBy: actor.name,
        },
      });
      const view = toSubscriptionView(created);
      await recordAudit(tx, actor, { action: "subscription.created", target: { kind: "subscription", id }, after: view });
      return created;
    }),
  );
  return { ...toSubscriptionView(row), secret };
}
