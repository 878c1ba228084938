import { z } from "zod";
import { LOCATION_SOURCES, PRECISIONS } from "../geocoding/types";
import { decimalText, integerText, queryParameter } from "../query-parameters";
import { EMERGENCY_TYPES, STATUSES } from "../vocabulary";

/**
 * The call-taking endpoints' contracts (docs/calls.md, "A call a person takes"): the address
 * candidates while a location is typed, and the open incidents near a location a call may duplicate.
 * The taken call's own body is the calls' (lib/calls/taken-schema.ts): POST /api/calls is theirs.
 */

export const LOCATION_QUERY_MIN = 3;
export const LOCATION_QUERY_MAX = 200;
export const CANDIDATES_MAX = 20;
export const CANDIDATES_DEFAULT = 8;

export const locationQueryParameters = {
  q: queryParameter({
    schema: z.string().trim().min(LOCATION_QUERY_MIN).max(LOCATION_QUERY_MAX),
    description:
      "The location as typed so far: a house number and street (its last word perhaps unfinished), a crossing (\"Oak and 3rd\"), a street, then perhaps a comma and the community",
    label: "Invalid q",
    message: `q is required: text of ${LOCATION_QUERY_MIN} to ${LOCATION_QUERY_MAX} characters`,
    required: true,
  }),
  limit: queryParameter({
    schema: integerText(1, CANDIDATES_MAX).default(CANDIDATES_DEFAULT),
    description: `At most this many candidates (1 to ${CANDIDATES_MAX}, default ${CANDIDATES_DEFAULT})`,
    label: "Invalid limit",
    message: `limit must be an integer from 1 to ${CANDIDATES_MAX}`,
  }),
};

export const locationCandidateSchema = z.object({
  id: z.string().meta({ description: "The candidate's id, for POST /api/calls `candidate_id` with the same `location` (opaque)" }),
  label: z.string().meta({ description: "The matched address in its standard form (the centre's GIS), or the place a geocoder named" }),
  precision: z.enum(PRECISIONS),
  source: z.enum(LOCATION_SOURCES).meta({ description: "`centre_gis` for the centre's own address points and centrelines; a hosted geocoder or the gazetteer when the GIS has nothing" }),
  latitude: z.number(),
  longitude: z.number(),
  uncertainty_m: z.number().meta({ description: "Radius in metres within which the place is (about 95%)" }),
});

export type LocationCandidate = z.infer<typeof locationCandidateSchema>;

export const locationCandidatesSchema = z.object({
  q: z.string(),
  candidates: z.array(locationCandidateSchema).meta({
    description: "Most exact first (address point, interpolated, crossing, street, then coarser), then best fitting; empty when no source knows the place",
  }),
});

export type LocationCandidates = z.infer<typeof locationCandidatesSchema>;

const coordinate = (name: string, min: number, max: number) =>
  queryParameter({
    schema: decimalText(min, max),
    description: `The location's ${name} (a candidate's)`,
    label: "Invalid parameter",
    message: `${name} is required: a number from ${min} to ${max}`,
    required: true,
  });

export const locationDuplicatesQueryParameters = {
  latitude: coordinate("latitude", -90, 90),
  longitude: coordinate("longitude", -180, 180),
  emergency_type: queryParameter({
    schema: z.enum(EMERGENCY_TYPES),
    description: "The call's emergency type",
    label: "Invalid emergency_type",
    message: `emergency_type is required: one of ${EMERGENCY_TYPES.join(", ")}`,
    required: true,
  }),
  exercise_id: queryParameter({
    schema: z.string().max(100),
    description: "A training call of this exercise: its incidents only. Without it, real incidents only",
    label: "Invalid exercise_id",
    message: "exercise_id must be at most 100 characters",
  }),
};

export const locationDuplicateSchema = z.object({
  incident_id: z.string(),
  emergency_type: z.string(),
  severity: z.string(),
  status: z.enum(STATUSES),
  location: z.string(),
  call_count: z.int(),
  distance_m: z.int().meta({ description: "Metres from the location to the incident's centre" }),
  seconds_apart: z.int().meta({ description: "Seconds from now to the incident's nearest call time (0 while its calls span now)" }),
});

export const locationDuplicatesSchema = z.object({
  duplicates: z.array(locationDuplicateSchema).meta({
    description: "Open incidents a call here of this type would be marked a possible duplicate of (docs/incidents.md, \"Possible duplicates\"), nearest first, at most three",
  }),
});

export type LocationDuplicates = z.infer<typeof locationDuplicatesSchema>;
