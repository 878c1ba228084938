import { z } from "zod";
import { queryParameter } from "../query-parameters";

/**
 * The body of GET /api/health and each readiness check's outcome, as zod schemas (also the source
 * of the OpenAPI document). Free of the database and storage: the endpoint registry imports it,
 * and proxy.ts imports the registry.
 *
 * Outcomes go only to callers with the API key, and even they never see a host, path or database
 * name: a check reports kinds, counts and names from the repository, and a failure only as a code.
 */
const checkOutcomeSchema = z.object({
  ok: z.boolean(),
  error: z
    .string()
    .optional()
    .describe("Why the check failed, as a code (ECONNREFUSED, ENOTDIR, TIMEOUT, ...), never a message"),
});

/**
 * Every readiness check by name, with the details it reports beside `ok` (optional: a failed check
 * may not know them). A new check is one entry here and its run in lib/health/checks.ts.
 */
export const checkOutcomeSchemas = {
  database: checkOutcomeSchema.extend({ kind: z.enum(["postgresql", "pglite"]).optional() }),
  migrations: checkOutcomeSchema.extend({
    pending: z.array(z.string()).optional().describe("Migrations in the repository the database has not had"),
  }),
  storage: checkOutcomeSchema.extend({ kind: z.string().optional() }),
  backlog: checkOutcomeSchema.extend({
    pending: z
      .number()
      .int()
      .optional()
      .describe("Webhook payloads accepted while the database was down and not recorded yet (docs/webhook.md)"),
  }),
  redis: checkOutcomeSchema.extend({
    breakers: z
      .array(
        z.object({
          name: z.enum(["redis", "upstash"]),
          state: z.enum(["closed", "open"]).describe("open: the store failed or hung; fallbacks apply, probed in the background"),
          since: z.string().optional().describe("When it last opened or closed (ISO 8601)"),
        }),
      )
      .optional()
      .describe("Circuit breakers of the Redis / Upstash connections in use; empty without either"),
  }),
};

export type CheckName = keyof typeof checkOutcomeSchemas;
export type CheckOutcome<Name extends CheckName = CheckName> = z.infer<(typeof checkOutcomeSchemas)[Name]>;

export const healthQueryParameters = {
  probe: queryParameter({
    schema: z.enum(["ready", "live"]).default("ready"),
    description:
      "ready: the readiness checks' latest result, 503 while a required check fails (for load balancers). " +
      "live: 200 whenever the process answers, no check consulted (for a liveness probe, which should not " +
      "restart a server because its database is down).",
    label: "Invalid parameter",
    message: "probe must be ready or live",
  }),
};

export const healthReportSchema = z.object({
  status: z.enum(["ok", "unavailable"]).describe("ok: every required check passed at checkedAt (probe=live: always ok)"),
  checkedAt: z
    .string()
    .optional()
    .describe("When the checks last ran (ISO 8601); they run at most every HEALTH_CHECK_INTERVAL_MS. Absent for probe=live"),
  checks: z
    .object(checkOutcomeSchemas)
    .optional()
    .describe("Each check's outcome: only for a caller with the API key (Bearer or session cookie), or when API_KEY is unset"),
});

export type HealthReport = z.infer<typeof healthReportSchema>;
