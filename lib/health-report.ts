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
});

export type HealthReport = z.infer<typeof healthReportSchema>;
