import { z } from "zod";
import { documentedWriteAnswer } from "../access/write-answer";
import type { Endpoint } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { acknowledgementSchema } from "./schema";

/**
 * A dispatcher's acknowledgement of an incident's alert (docs/dashboard.md, "Alerts").
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const acknowledgementEndpoints = {
  incidentAcknowledge: {
    path: "/api/incidents/:id/acknowledge",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      POST: {
        operationId: "acknowledgeIncident",
        permission: ["dispatch", "train"],
        summary: "Acknowledge the incident's alert: its new calls, or its reminder, have been seen",
        description:
          "Append-only, audited (`incident.acknowledged`) and carried into the change feed (a change with `acknowledgement`), " +
          "so every dashboard's alerts drop the incident until another call arrives or its wait passes its threshold again " +
          "(docs/dashboard.md, \"Alerts\"). A trainer may acknowledge training incidents only.",
        responses: {
          201: { description: "The acknowledgement as kept (to a caller without `read`: its id and what changed)", body: documentedWriteAnswer("Acknowledgement", acknowledgementSchema) },
        },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
