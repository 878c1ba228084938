import { z } from "zod";
import { mapQueryParameters } from "../live/schema";

/** Below this zoom the states' outlines say enough; names would only crowd them. */
export const PLACE_NAMES_FROM_ZOOM = 5;

/** GET /api/map/places (docs/dashboard.md, "Map"): the viewport, as the incident map takes it. */
export const mapPlacesQueryParameters = {
  west: mapQueryParameters.west,
  south: mapQueryParameters.south,
  east: mapQueryParameters.east,
  north: mapQueryParameters.north,
  zoom: mapQueryParameters.zoom,
};

export const mapPlacesSchema = z.object({
  places: z
    .array(z.object({ name: z.string(), state: z.string().meta({ description: "Two-letter US state code" }), latitude: z.number(), longitude: z.number() }))
    .meta({ description: "Towns and cities to name in the viewport: the largest of each label-sized cell, largest first" }),
});
export type MapPlaces = z.infer<typeof mapPlacesSchema>;
