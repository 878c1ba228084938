import type { Endpoint } from "../contract/endpoint";
import { healthQueryParameters, healthReportSchema } from "./report";

/**
 * Readiness and liveness (docs/architecture.md, "Health").
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const healthEndpoints = {
  // Probed by load balancers and monitors, often from one address: not limited.
  health: {
    path: "/api/health",
    errorFormat: "calls",
    protection: {},
    methods: {
      GET: {
        operationId: "health",
        permission: "public",
        summary: "Readiness (database reachable and migrated, payload storage reachable), or liveness",
        description:
          "Answers from the latest run of the checks, which run at most every HEALTH_CHECK_INTERVAL_MS (5 s) " +
          "and write nothing. Each check's outcome only with the API key (Bearer or session cookie).",
        query: healthQueryParameters,
        responses: {
          200: { description: "Ready", body: { name: "HealthReport", schema: healthReportSchema } },
          503: {
            description: "Not ready; with the API key, the failing check carries an error code",
            body: { name: "HealthReport", schema: healthReportSchema },
          },
        },
        errors: ["INVALID_PARAMETER"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
