import { z } from "zod";

/** The body of GET /api/health (also the source of its OpenAPI schema). */
export const healthReportSchema = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.object({
    ok: z.boolean(),
    kind: z.string().optional(),
    location: z.string().optional(),
    error: z.string().optional(),
  }),
  migrations: z.object({ ok: z.boolean(), pending: z.array(z.string()), error: z.string().optional() }),
  storage: z.object({ ok: z.boolean(), kind: z.string().optional(), error: z.string().optional() }),
  backlog: z
    .object({
      ok: z.boolean(),
      pending: z.number().int().optional().describe("Webhook payloads accepted while the database was down, not yet recorded"),
      error: z.string().optional(),
    })
    .describe("Deferred webhook payloads (docs/webhook.md); a backlog does not make the service unavailable"),
  redis: z
    .array(
      z.object({
        name: z.string(),
        state: z.enum(["closed", "open"]).describe("open: the store failed or hung, fallbacks apply, probed in the background"),
        since: z.string().optional(),
        lastError: z.string().optional(),
      }),
    )
    .describe("Circuit breakers of the Redis / Upstash connections in use; empty without either"),
});

export type HealthReport = z.infer<typeof healthReportSchema>;
