import { z } from "zod";

/** An incident's acknowledgement as the API and the change feed carry it (no import but zod: the registry and lib/board/schema read it). */
export const acknowledgementSchema = z.object({
  id: z.string().meta({ description: "The acknowledgement's id, in the order they were kept" }),
  incident_id: z.string(),
  by: z.object({
    kind: z.enum(["user", "key"]),
    id: z.string().meta({ description: "The person's id, the scoped key's id, or API_KEY" }),
    name: z.string().meta({ description: "The person's or key's name when they acknowledged" }),
  }),
  acknowledged_at: z.int().meta({ description: "Unix seconds" }),
});
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;
