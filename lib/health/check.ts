import { z } from "zod";

/**
 * What every readiness check reports. Details go only to callers with the API key, and even they
 * never see a host, path or database name: a check reports kinds, counts and names from the
 * repository, and a failure only as a code.
 */
export const checkOutcomeSchema = z.object({
  ok: z.boolean(),
  error: z
    .string()
    .optional()
    .describe("Why the check failed, as a code (ECONNREFUSED, ENOTDIR, TIMEOUT, ...), never a message"),
});
export type CheckOutcome = z.infer<typeof checkOutcomeSchema>;

/**
 * One named readiness check (lib/health/checks.ts). A check that throws, or answers later than the
 * health module waits, counts as failed with an error code. Its own details extend
 * checkOutcomeSchema and are optional, since a failed check may not know them.
 */
export interface HealthCheck<Outcome extends CheckOutcome = CheckOutcome> {
  /**
   * true: the service is not ready while this check fails (GET /api/health answers 503).
   * false: the failure shows in the details only (a fallback covers it).
   */
  required: boolean;
  /** The body a key holder sees for this check, declared for the OpenAPI document. */
  outcome: z.ZodType<Outcome>;
  run(): Promise<Outcome>;
}
