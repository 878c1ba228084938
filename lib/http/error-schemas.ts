import { z } from "zod";

/** The error bodies lib/http/respond.ts writes, one per ErrorFormat, for the OpenAPI document. */
const timestamp = z.string().meta({ description: "ISO 8601 UTC" });
const errorCode = z.string().meta({ description: "Machine-readable code, e.g. INVALID_PARAMETER" });

export const errorBodySchemas = {
  calls: z.object({
    error: z.string().meta({ description: "Short label, e.g. Invalid limit" }),
    message: z.string(),
    timestamp,
    error_code: errorCode,
  }),
  simulation: z.object({
    error: z.string(),
    details: z.string(),
    timestamp,
    error_code: errorCode,
  }),
  webhook: z.object({
    status: z.literal("error"),
    message: z.string(),
    timestamp,
    error_code: errorCode,
  }),
};
