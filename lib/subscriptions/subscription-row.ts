import { randomBytes } from "node:crypto";
import type { Subscription } from "../db/generated/client";
import type { Severity } from "../vocabulary";
import type { DerivedEvent } from "./events";
import type { BodyFormat, EventType } from "./event-types";
import type { SubscriptionView } from "./schema";

/** The subscriptions table's rows as the API shows them, and what a row decides about an event. */

/** The previous secret keeps signing this long after a rotation. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** A Standard Webhooks secret: whsec_ and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** A row stored before credentials were refused keeps them for delivery, but never shows its password. */
function maskedPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password === "") return url;
  parsed.password = "***";
  return parsed.href;
}

export function toSubscriptionView(row: Subscription): SubscriptionView {
  return {
    id: row.id,
    name: row.name,
    url: maskedPassword(row.url),
    event_types: row.eventTypes as EventType[],
    filters: {
      scenario: row.filterScenario,
      simulation: row.filterSimulation,
      severities: row.filterSeverities.length > 0 ? (row.filterSeverities as Severity[]) : null,
    },
    body_format: row.bodyFormat as BodyFormat,
    enabled: row.enabled,
    health: row.health as SubscriptionView["health"],
    cursor: Number(row.cursor),
    attempt: row.attempt,
    next_attempt_at: iso(row.nextAttemptAt),
    failing_since: iso(row.failingSince),
    last_error: row.lastError,
    last_delivery_at: iso(row.lastDeliveryAt),
    secret_rotated_until: row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > new Date() ? iso(row.previousSecretUntil) : null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

/** The secrets that sign now: the current one, and the previous one during its grace period. */
export function signingSecrets(row: Subscription, now: Date): string[] {
  return row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > now ? [row.secret, row.previousSecret] : [row.secret];
}

/** Whether the subscription wants this event: its type, then the filters on its subject (the call, or the incident). */
export function wants(row: Subscription, event: DerivedEvent): boolean {
  if (!row.eventTypes.includes(event.type)) return false;
  const { scenario, simulation, severity } = event.subject;
  if (row.filterScenario !== null && scenario !== row.filterScenario) return false;
  if (row.filterSimulation !== null && simulation !== row.filterSimulation) return false;
  return row.filterSeverities.length === 0 || row.filterSeverities.includes(severity);
}
