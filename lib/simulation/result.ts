import { z } from "zod";

export const GENERATION_METHODS = ["Hosted AI", "Templates (fast mode)", "Templates (fallback)"] as const;
export type GenerationMethod = (typeof GENERATION_METHODS)[number];

/** The success body of POST /api/simulate. */
export const simulationResultSchema = z.object({
  message: z.string(),
  scenario: z.string(),
  total_requested: z.int(),
  successful: z.int(),
  failed: z.int(),
  generation_method: z.enum(GENERATION_METHODS),
  /** Only with `Templates (fallback)`: how many summaries came from templates. */
  ai_fallbacks: z.int().optional(),
  sample_calls: z.array(z.object({ call_id: z.string(), location: z.string(), emergency_type: z.string() })),
  errors: z.array(z.string()),
});

export type SimulationResult = z.infer<typeof simulationResultSchema>;
