import type { Endpoint } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { auditPageSchema, auditQueryParameters } from "./schema";

/**
 * The audit trail's endpoint (docs/security.md).
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const auditEndpoints = {
  audit: {
    path: "/api/audit",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listAuditEvents",
        permission: "admin",
        summary: "The audit trail: who changed or read what, newest first, keyset-paginated",
        query: auditQueryParameters,
        responses: { 200: { description: "One page of events", body: { name: "AuditPage", schema: auditPageSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
