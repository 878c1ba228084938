import { z } from "zod";
import { integerText, queryParameter } from "../query-parameters";

/**
 * GET /api/map/streets and GET /api/map/area (docs/dashboard.md, "Street map"): the centre's own
 * streets from its GIS data, drawn when no PMTiles street map is.
 */

/** Below this zoom the streets would be a grey mat: none are sent. */
export const STREETS_FROM_ZOOM = 13;
/** House numbers from this zoom on: a block is wide enough for them. */
export const ADDRESS_NUMBERS_FROM_ZOOM = 17;
/** A box may span at most this many pixels a side at its zoom (a viewport with its margin). */
export const MAX_BOX_PIXELS = 8192;
/** At most this many centrelines and address points read for one box; past them the answer says `truncated`. */
export const MAX_STREET_LINES = 4000;
export const MAX_ADDRESS_NUMBERS = 2000;
/**
 * The browser keeps a box's streets this long without asking again: they change only with a GIS
 * import. Private: they are the centre's data, read with a session.
 */
export const STREETS_CACHE_CONTROL = "private, max-age=300";
/** The region buttons name at most this many communities, the largest first. */
export const MAX_COMMUNITIES = 20;

const DECIMAL = "-?\\d{1,3}(\\.\\d{1,20})?";

/** [west, south, east, north] in degrees. */
export type Box = [number, number, number, number];

const boxSchema = z
  .codec(z.string().regex(new RegExp(`^${DECIMAL}(,${DECIMAL}){3}$`)), z.array(z.number()).length(4), {
    decode: (text) => text.split(",").map(Number),
    encode: (box) => box.join(","),
  })
  .refine(([west, south, east, north]) => west >= -180 && east <= 180 && south >= -90 && north <= 90 && west < east && south < north);

export const mapStreetsQueryParameters = {
  bbox: queryParameter({
    schema: boxSchema,
    description: "The box to draw: west,south,east,north in degrees (WGS 84), west before east and south before north.",
    label: "Invalid bbox",
    message: "bbox is required: west,south,east,north in degrees, west < east (-180 to 180), south < north (-90 to 90)",
    required: true,
  }),
  zoom: queryParameter({
    schema: integerText(0, 22),
    description: `Map zoom level (Web Mercator, 256-pixel tiles), 0 to 22; the box may span at most ${MAX_BOX_PIXELS} pixels a side at it.`,
    label: "Invalid parameter",
    message: "zoom is required: an integer from 0 to 22",
    required: true,
  }),
};

export const mapStreetsSchema = z.object({
  zoom: z.int(),
  streets: z
    .array(
      z.object({
        name: z.string().meta({ description: "The street's name as imported (pre-direction, pre-type, name, post-type, post-direction)" }),
        coordinates: z.array(z.number()).meta({ description: "A line as [lon, lat, lon, lat, ...]: the street's centrelines joined end to end, simplified to a pixel at the zoom" }),
      }),
    )
    .meta({ description: `The centrelines in the box, none below zoom ${STREETS_FROM_ZOOM}` }),
  addresses: z
    .array(z.object({ number: z.string().meta({ description: "The house number with its prefix and suffix" }), longitude: z.number(), latitude: z.number() }))
    .meta({ description: `The address points in the box, from zoom ${ADDRESS_NUMBERS_FROM_ZOOM}` }),
  truncated: z.boolean().meta({ description: `More than ${MAX_STREET_LINES} centrelines or ${MAX_ADDRESS_NUMBERS} address points lie in the box: some are left out` }),
});
export type MapStreets = z.infer<typeof mapStreetsSchema>;

const boxAnswer = z.tuple([z.number(), z.number(), z.number(), z.number()]).meta({ description: "[west, south, east, north]" });

export const mapAreaSchema = z.object({
  extent: boxAnswer.nullable().meta({ description: "Around all of the centre's GIS data; null without any" }),
  communities: z
    .array(z.object({ name: z.string(), bounds: boxAnswer }))
    .meta({ description: `The centre's communities (their centrelines and address points), the ${MAX_COMMUNITIES} largest, by name` }),
});
export type MapArea = z.infer<typeof mapAreaSchema>;
