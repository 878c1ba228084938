import { type Endpoint, rawBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { gisImportBodySchema, gisImportQueryParameters, gisImportResultSchema, gisLayerListSchema } from "./centre/schema";
import { mapPlacesQueryParameters, mapPlacesSchema, PLACE_NAMES_FROM_ZOOM } from "./map-places-schema";
import {
  ADDRESS_NUMBERS_FROM_ZOOM, mapAreaSchema, mapStreetsQueryParameters, mapStreetsSchema, MAX_ADDRESS_NUMBERS, MAX_BOX_PIXELS, MAX_STREET_LINES,
  STREETS_FROM_ZOOM,
} from "./map-streets-schema";

/**
 * The geocoding's endpoints (docs/geocoding.md): the offline map's place names, the centre's own
 * street map and area (docs/dashboard.md, "Street map") and the centre's GIS layers.
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const geocodingEndpoints = {
  mapPlaces: {
    path: "/api/map/places",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getMapPlaces",
        permission: "read",
        summary: "Town and city names for the offline map's viewport",
        description:
          "From the geocoder's own US place lists (no stored call is read): the largest place of each label-sized cell " +
          `of the viewport, so a wider view names the larger places; none below zoom ${PLACE_NAMES_FROM_ZOOM}. The same view always gets the same answer.`,
        query: mapPlacesQueryParameters,
        responses: { 200: { description: "The places to name", body: { name: "MapPlaces", schema: mapPlacesSchema } } },
        errors: ["INVALID_PARAMETER"],
      },
    },
  },

  mapStreets: {
    path: "/api/map/streets",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getMapStreets",
        permission: "read",
        summary: "The centre's own streets in a box, for the map drawn without a PMTiles street map",
        description:
          "From the centre's imported centrelines (through an index on their bounds; no stored call is read): each street's " +
          `lines in the box joined end to end and simplified to a pixel at the zoom, none below zoom ${STREETS_FROM_ZOOM}; from zoom ` +
          `${ADDRESS_NUMBERS_FROM_ZOOM} the box's house numbers from the address points. At most ${MAX_STREET_LINES} centrelines and ` +
          `${MAX_ADDRESS_NUMBERS} address points (\`truncated\` says when more lie in the box); a box wider or taller than ` +
          `${MAX_BOX_PIXELS} pixels at its zoom is refused. Kept by the browser five minutes (Cache-Control), with an ETag.`,
        query: mapStreetsQueryParameters,
        responses: { 200: { description: "The streets to draw", body: { name: "MapStreets", schema: mapStreetsSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  mapArea: {
    path: "/api/map/area",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getMapArea",
        permission: "read",
        summary: "The centre's area from its GIS data: its extent and its communities, for the map's first view and region buttons",
        responses: { 200: { description: "The centre's area", body: { name: "MapArea", schema: mapAreaSchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  gisLayers: {
    path: "/api/gis",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      GET: {
        operationId: "listGisLayers",
        permission: "admin",
        summary: "The centre's GIS layers: feature counts, source file, when imported",
        responses: { 200: { description: "Layers imported so far", body: { name: "GisLayerList", schema: gisLayerListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "importGisLayer",
        permission: "admin",
        summary: "Replace one layer of the centre's GIS data (address points or centrelines) with a file",
        description:
          "The layer is replaced whole, in one transaction, once every feature has been read and checked; a bad feature " +
          "answers 400 naming its line (CSV) or feature (GeoJSON, from 0) and field, and the previous data stays " +
          '(docs/geocoding.md, "The centre\'s GIS data"). At most GIS_IMPORT_MAX_BYTES (512 MiB unless configured).',
        query: gisImportQueryParameters,
        body: rawBody({ name: "GisFile", schema: gisImportBodySchema }, "Streamed: lib/geocoding/centre reads the features as they arrive."),
        responses: { 200: { description: "The layer now holds this file's features", body: { name: "GisImportResult", schema: gisImportResultSchema } } },
        errors: ["INVALID_PARAMETER", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
