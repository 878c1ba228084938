import { z } from "zod";
import { parseWith } from "../domain-error";
import { idCursorParameter, queryParameter } from "../query-parameters";
import { SCENARIO_IDS } from "../scenarios/scenario-list";
import { SEVERITIES } from "../vocabulary";
import { BODY_FORMATS, EVENT_TYPES } from "./event-types";

/**
 * Outbound webhook subscriptions (docs/integrations.md): requests and views.
 * Free of the database (the endpoint registry imports it).
 */

export const SUBSCRIPTION_HEALTH = ["ok", "failing"] as const;

// Credentials in a URL would be stored, listed and logged with it; the signature authenticates instead.
// zod runs this refinement even when z.url() has refused the text (a host such as `%2509...` or
// `[fe80::1%25lo]`): that refusal is the answer, and a URL that does not parse has no credentials.
const withoutCredentials = (url: string) => {
  if (!URL.canParse(url)) return true;
  const parsed = new URL(url);
  return parsed.username === "" && parsed.password === "";
};

const targetUrl = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, normalize: true }))
  .refine(withoutCredentials, "a target URL may not carry credentials (user:password@); receivers verify the webhook-signature header instead")
  .meta({
    description: "http(s) URL events are POSTed to, without credentials; private and loopback addresses are refused unless the server allows them",
  });

const filtersSchema = z.strictObject({
  scenario: z.enum(SCENARIO_IDS as [string, ...string[]]).nullable().optional()
    .meta({ description: "Only calls (and incidents of calls) of this simulator scenario" }),
  simulation: z.boolean().nullable().optional().meta({ description: "true: simulated and exercise calls only; false: real calls only" }),
  severities: z.array(z.enum(SEVERITIES)).max(SEVERITIES.length).nullable().optional()
    .meta({ description: "Only these severities (a call's, or an incident's highest)" }),
});

const eventTypes = z.array(z.enum(EVENT_TYPES)).min(1).transform((types) => [...new Set(types)]);

export const createSubscriptionSchema = z.strictObject({
  name: z.string().trim().min(1).max(120),
  url: targetUrl,
  event_types: eventTypes,
  filters: filtersSchema.optional(),
  body_format: z.enum(BODY_FORMATS).default("mayday"),
  enabled: z.boolean().default(true),
});
export type CreateSubscriptionRequest = z.output<typeof createSubscriptionSchema>;
export const parseCreateSubscription = (body: unknown) => parseWith(createSubscriptionSchema, body);

export const updateSubscriptionSchema = z.strictObject({
  name: z.string().trim().min(1).max(120).optional(),
  url: targetUrl.optional(),
  event_types: eventTypes.optional(),
  filters: filtersSchema.optional(),
  body_format: z.enum(BODY_FORMATS).optional(),
  enabled: z.boolean().optional().meta({ description: "false pauses deliveries (the cursor stays: nothing is dropped)" }),
  rotate_secret: z.literal(true).optional().meta({
    description: "A new signing secret, shown once in the answer; the old one still signs for 24 hours",
  }),
});
export type UpdateSubscriptionRequest = z.output<typeof updateSubscriptionSchema>;
export const parseUpdateSubscription = (body: unknown) => parseWith(updateSubscriptionSchema, body);

export const subscriptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  event_types: z.array(z.enum(EVENT_TYPES)),
  filters: z.object({
    scenario: z.string().nullable(),
    simulation: z.boolean().nullable(),
    severities: z.array(z.enum(SEVERITIES)).nullable(),
  }),
  body_format: z.enum(BODY_FORMATS),
  enabled: z.boolean(),
  health: z.enum(SUBSCRIPTION_HEALTH).meta({ description: "failing: deliveries have failed for longer than the retry window (24 h)" }),
  cursor: z.int().meta({ description: "Every event of changes up to this change number is delivered" }),
  attempt: z.int().meta({ description: "Failed attempts at the event waiting to go out; 0 when the last succeeded" }),
  next_attempt_at: z.string().nullable(),
  failing_since: z.string().nullable().meta({ description: "First failed attempt of the current run of failures" }),
  last_error: z.string().nullable(),
  last_delivery_at: z.string().nullable(),
  secret_rotated_until: z.string().nullable().meta({ description: "Until when the previous secret also signs" }),
  created_by: z.string(),
  created_at: z.string(),
});
export type SubscriptionView = z.infer<typeof subscriptionSchema>;

export const subscriptionWithSecretSchema = subscriptionSchema.extend({
  secret: z.string().meta({ description: "whsec_<base64>: the signing secret, shown this once (Standard Webhooks)" }),
});
export type SubscriptionWithSecret = z.infer<typeof subscriptionWithSecretSchema>;

export const subscriptionListSchema = z.object({ subscriptions: z.array(subscriptionSchema) });

export const deliverySchema = z.object({
  id: z.string(),
  event_id: z.string().meta({ description: "The webhook-id header: the same for every attempt at one event" }),
  event_type: z.enum(EVENT_TYPES),
  change: z.int(),
  attempt: z.int().meta({ description: "1 for the first attempt at this event" }),
  status: z.int().nullable().meta({ description: "The receiver's HTTP status; null without an answer" }),
  latency_ms: z.int(),
  error: z.string().nullable(),
  at: z.string(),
});
export type DeliveryView = z.infer<typeof deliverySchema>;

export const deliveryPageSchema = z.object({
  deliveries: z.array(deliverySchema).meta({ description: "Newest first" }),
  next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next (older) page; null on the last" }),
});
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;

export const subscriptionParams = z.object({ id: z.string().meta({ description: "The subscription's id" }) });

export const replayQueryParameters = {
  after: queryParameter({
    schema: z.coerce.number().int().min(0),
    description: "Send again every event of the changes after this change number",
    label: "Invalid after",
    message: "after must be a change number (an integer from 0)",
    required: true as const,
  }),
};

export const deliveriesQueryParameters = {
  limit: queryParameter({
    schema: z.coerce.number().int().min(1).max(500).default(100),
    description: "Deliveries per page (1-500, default 100)",
    label: "Invalid limit",
    message: "limit must be an integer from 1 to 500",
  }),
  cursor: idCursorParameter,
};
