import { z } from "zod";
import { viewportParameters } from "../query-parameters";

/** Below this zoom the states' outlines say enough; names would only crowd them. */
export const PLACE_NAMES_FROM_ZOOM = 5;

/** GET /api/map/places (docs/dashboard.md, "Map"): the viewport, as the incident map takes it. */
export const mapPlacesQueryParameters = viewportParameters;

export const mapPlacesSchema = z.object({
  places: z
    .array(z.object({ name: z.string(), state: z.string().meta({ description: "Two-letter US state code" }), latitude: z.number(), longitude: z.number() }))
    .meta({ description: "Towns and cities to name in the viewport: the largest of each label-sized cell, largest first" }),
});
export type MapPlaces = z.infer<typeof mapPlacesSchema>;
