import { z } from "zod";
import type { Endpoint } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { intervalsQueryParameters, intervalsReportSchema } from "./schema";

/**
 * The reports' endpoints (docs/reports.md).
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const reportEndpoints = {
  reportIntervals: {
    path: "/api/reports/intervals",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getDispatchIntervals",
        permission: "read",
        summary:
          "Dispatch intervals: seconds from a call's arrival to its first dispatch, p50/p90 and the share within 60 s, by type and severity; " +
          "per unit, turnout, travel and response with the share within NFPA 1710's targets",
        query: intervalsQueryParameters,
        responses: { 200: { description: "The report", body: { name: "DispatchIntervals", schema: intervalsReportSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  reportIntervalsCsv: {
    path: "/api/reports/intervals.csv",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getDispatchIntervalsCsv",
        permission: "read",
        summary: "The dispatch intervals report as CSV, one line per type and severity, per severity and overall",
        query: intervalsQueryParameters,
        responses: { 200: { description: "The report, as an attachment", contentType: "text/csv", body: { schema: z.string() } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
