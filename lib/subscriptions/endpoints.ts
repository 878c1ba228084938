import { z } from "zod";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  createSubscriptionSchema, deliveriesQueryParameters, deliveryPageSchema, parseCreateSubscription, parseUpdateSubscription,
  replayQueryParameters, subscriptionListSchema, subscriptionParams, subscriptionSchema, subscriptionWithSecretSchema,
  updateSubscriptionSchema,
} from "./schema";

/**
 * Outbound webhook subscriptions' endpoints (docs/integrations.md).
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const subscriptionEndpoints = {
  subscriptions: {
    path: "/api/subscriptions",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      POST: {
        operationId: "createSubscription",
        permission: "admin",
        summary: "Subscribe a receiver to incident and call events (signed webhooks that follow the change feed)",
        description:
          "Events of changes from now on are POSTed to `url`, signed with the Standard Webhooks scheme; the signing " +
          "secret is in this answer only. A target that resolves to a private, loopback or link-local address is " +
          "refused (400) unless SUBSCRIPTION_ALLOW_PRIVATE_TARGETS is set.",
        body: jsonBody({ name: "SubscriptionRequest", schema: createSubscriptionSchema }, parseCreateSubscription),
        responses: { 201: { description: "The subscription, with its secret", body: { name: "SubscriptionWithSecret", schema: subscriptionWithSecretSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
      GET: {
        operationId: "listSubscriptions",
        permission: "admin",
        summary: "Every subscription with its delivery state, newest first",
        responses: { 200: { description: "Subscriptions", body: { name: "SubscriptionList", schema: subscriptionListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  subscription: {
    path: "/api/subscriptions/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: subscriptionParams,
    methods: {
      GET: {
        operationId: "getSubscription",
        permission: "admin",
        summary: "One subscription and its delivery state",
        responses: { 200: { description: "The subscription", body: { name: "Subscription", schema: subscriptionSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      PATCH: {
        operationId: "updateSubscription",
        permission: "admin",
        summary: "Change a subscription, pause or resume it, or rotate its secret",
        description:
          "Pausing keeps its cursor: nothing is dropped. rotate_secret answers the new secret once; the previous one " +
          "keeps signing (a second signature) for 24 hours.",
        body: jsonBody({ name: "SubscriptionUpdate", schema: updateSubscriptionSchema }, parseUpdateSubscription),
        responses: {
          200: {
            description: "The subscription after the change (with `secret` when rotated)",
            body: { schema: z.union([subscriptionWithSecretSchema, subscriptionSchema]) },
          },
        },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
      DELETE: {
        operationId: "removeSubscription",
        permission: "admin",
        summary: "Remove a subscription and its delivery log",
        responses: { 200: { description: "The subscription as it was", body: { name: "Subscription", schema: subscriptionSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  subscriptionReplay: {
    path: "/api/subscriptions/:id/replay",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: subscriptionParams,
    methods: {
      POST: {
        operationId: "replaySubscription",
        permission: "admin",
        summary: "Send again every event of the changes after a change number, in order, with their webhook-ids",
        query: replayQueryParameters,
        responses: { 200: { description: "The subscription, its cursor moved", body: { name: "Subscription", schema: subscriptionSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  subscriptionDeliveries: {
    path: "/api/subscriptions/:id/deliveries",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: subscriptionParams,
    methods: {
      GET: {
        operationId: "listSubscriptionDeliveries",
        permission: "admin",
        summary: "The delivery log: each attempt's event, attempt number, status, latency and error, newest first",
        description: "Attempts are kept SUBSCRIPTION_DELIVERY_LOG_DAYS days (7 by default).",
        query: deliveriesQueryParameters,
        responses: { 200: { description: "One page of attempts", body: { name: "DeliveryPage", schema: deliveryPageSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
