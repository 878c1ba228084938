import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { parseSimulateRequest, simulateRequestSchema } from "./request";
import { simulationResultSchema } from "./result";

/**
 * The simulator's endpoint (docs/simulation.md).
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const simulationEndpoints = {
  simulate: {
    path: "/api/simulate",
    errorFormat: "simulation",
    protection: { rateLimit: rateLimitPolicies.simulate },
    methods: {
      POST: {
        operationId: "simulate",
        permission: "train",
        summary: "Generate synthetic emergency calls for a disaster scenario",
        body: jsonBody({ name: "SimulateRequest", schema: simulateRequestSchema }, parseSimulateRequest),
        responses: {
          200: { description: "The request was processed", body: { name: "SimulateResponse", schema: simulationResultSchema } },
        },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
