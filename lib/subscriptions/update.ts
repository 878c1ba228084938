import type { Actor } from "../access/actor";
import { recordAudit } from "../audit/record-audit";
import { withDatabase } from "../db/with-database";
import { notFound } from "../domain-error";
import { checkTarget } from "./address";
import type { SubscriptionView, SubscriptionWithSecret, UpdateSubscriptionRequest } from "./schema";
import { newSecret, ROTATION_GRACE_MS, toSubscriptionView } from "./subscription-row";

/**
 * PATCH /api/subscriptions/{id}: name, target, event types, filters, body format, paused or
 * enabled, and secret rotation (the new secret in this answer only; the previous one keeps signing
 * for 24 hours). Pausing keeps the cursor: nothing is dropped. Enabling it again, or a new target,
 * clears a scheduled retry so delivery resumes at once.
 */
export async function updateSubscription(
  id: string,
  request: UpdateSubscriptionRequest,
  actor: Actor,
): Promise<SubscriptionView | SubscriptionWithSecret> {
  if (request.url !== undefined) await checkTarget(request.url);
  const secret = request.rotate_secret ? newSecret() : undefined;
  return withDatabase((db) =>
    db.$transaction(async (tx) => {
      const [before] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM subscriptions WHERE id = ${id} FOR UPDATE`;
      if (!before) throw notFound(`No subscription with id ${id}`);
      const current = (await tx.subscription.findUnique({ where: { id } }))!;
      const filters = request.filters;
      const updated = await tx.subscription.update({
        where: { id },
        data: {
          name: request.name,
          url: request.url,
          eventTypes: request.event_types,
          bodyFormat: request.body_format,
          enabled: request.enabled,
          ...(filters && {
            filterScenario: filters.scenario ?? null,
            filterSimulation: filters.simulation ?? null,
            filterSeverities: filters.severities ?? [],
          }),
          // Resumed, or pointed elsewhere: the next attempt is now, not at the scheduled retry.
          ...(((request.enabled === true && !current.enabled) || (request.url !== undefined && request.url !== current.url)) && { nextAttemptAt: null }),
          ...(secret && { secret, previousSecret: current.secret, previousSecretUntil: new Date(Date.now() + ROTATION_GRACE_MS) }),
          updatedAt: new Date(),
        },
      });
      const view = toSubscriptionView(updated);
      const { rotate_secret: rotated, ...changes } = request;
      await recordAudit(tx, actor, {
        action: "subscription.updated",
        target: { kind: "subscription", id },
        before: toSubscriptionView(current),
        after: { ...changes, secret_rotated: rotated === true },
      });
      return secret ? { ...view, secret } : view;
    }),
  );
}
