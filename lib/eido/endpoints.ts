import { z } from "zod";
import type { Endpoint } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";

/**
 * The incident as a NENA EIDO (docs/integrations.md, "EIDO").
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const eidoEndpoints = {
  incidentEido: {
    path: "/api/incidents/:id/eido",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      GET: {
        operationId: "getIncidentEido",
        permission: "read",
        summary: "The incident as a NENA Emergency Incident Data Object (NENA-STA-021.1a, JSON)",
        description:
          "NENA's Incident Tracking Identifier under CENTRE_DOMAIN, APCO type code and registry status; the incident's " +
          "location and each call's (civic address and geodetic point, PIDF-LO); each call with its time, call-back URI, " +
          "summary and status history; notes; each unit sent with its status and the time of each move; merges and splits. " +
          "An incident merged away answers with its merge " +
          "(docs/integrations.md, \"EIDO\"; schema lib/eido/eido.schema.json).",
        responses: {
          200: { description: "The EIDO", body: { name: "Eido", schema: z.record(z.string(), z.unknown()) } },
        },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
