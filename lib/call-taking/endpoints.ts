import type { Endpoint } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import { locationCandidatesSchema, locationDuplicatesQueryParameters, locationDuplicatesSchema, locationQueryParameters } from "./schema";

/**
 * The call-taking endpoints (docs/calls.md, "A call a person takes"): a location's candidates while
 * it is typed, and the open incidents near it a call may duplicate. The taken call itself is
 * POST /api/calls (lib/calls/endpoints.ts). Composed into the one registry by lib/http/endpoints.ts.
 */
export const callTakingEndpoints = {
  locations: {
    path: "/api/locations",
    errorFormat: "calls",
    // Asked as a person types (a few a second at most): the calls' budget.
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getLocationCandidates",
        permission: "read",
        summary: "Where a location typed so far may be: the centre's GIS candidates, else the geocoder's answer",
        description:
          "The centre's GIS first, from its in-memory index (address points, numbers along a centreline's range, crossings " +
          "\"Oak and 3rd\", streets; a last word perhaps unfinished), most exact first; when it has nothing, the geocoder every " +
          "call goes through (the hosted geocoder, cached per text, then the gazetteer), one answer. No stored call is read. " +
          "500 GEOCODING_ERROR only when the GIS has nothing, the hosted geocoder cannot answer and the gazetteer does not know the place.",
        query: locationQueryParameters,
        responses: { 200: { description: "The candidates", body: { name: "LocationCandidates", schema: locationCandidatesSchema } } },
        errors: ["INVALID_PARAMETER", "GEOCODING_ERROR", "DATABASE_ERROR"],
      },
    },
  },

  locationDuplicates: {
    path: "/api/locations/duplicates",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "getLocationDuplicates",
        permission: "read",
        summary: "The open incidents a call at this point and of this type would possibly duplicate, nearest first",
        description:
          "The possible-duplicate rule itself (docs/incidents.md, \"Possible duplicates\"): open incidents of the type and the " +
          "call's kind (real, or the exercise's) whose centre is within the type's D and whose calls span a time within its T " +
          "of now; the nearest three. POST /api/calls with `incident_id` joins one.",
        query: locationDuplicatesQueryParameters,
        responses: { 200: { description: "The incidents", body: { name: "LocationDuplicates", schema: locationDuplicatesSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
