import { invalidParameter } from "../domain-error";
import type { QueryValues } from "../query-parameters";
import { type MapPlaces, type mapPlacesQueryParameters, PLACE_NAMES_FROM_ZOOM } from "./map-places-schema";
import { getPlaceIndex } from "./places";

/** A label's room on screen, in pixels: one name per square of this side. */
const LABEL_CELL_PX = 110;
const MAX_PLACES = 300;

/**
 * GET /api/map/places: the towns and cities the offline map names in a viewport (the geocoder's own
 * US place lists, so a closed network still has them): the largest place of each label-sized cell,
 * so a wider view names only the larger places and every zoom in names more.
 */
export async function mapPlaces(values: QueryValues<typeof mapPlacesQueryParameters>): Promise<MapPlaces> {
  const { west, south, east, north, zoom } = values;
  if (west === undefined || south === undefined || east === undefined || north === undefined || zoom === undefined) {
    throw invalidParameter("Invalid parameter", "west, south, east, north and zoom are required");
  }
  if (zoom < PLACE_NAMES_FROM_ZOOM) return { places: [] };
  const cellDegrees = (360 / (256 * 2 ** zoom)) * LABEL_CELL_PX;
  const places = (await getPlaceIndex()).largestPlacePerCell({ west, south, east, north }, cellDegrees, MAX_PLACES);
  return { places: places.map(({ name, state, latitude, longitude }) => ({ name, state, latitude, longitude })) };
}
