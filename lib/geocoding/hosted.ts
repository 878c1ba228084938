import { z } from "zod";
import { UNCERTAINTY_METRES } from "./precision";
import { GeocoderUnavailableError, type GeocodeResult, type Precision } from "./types";
import { lookupTable } from "../lookup-table";

const nominatimResult = z.object({
  lat: z.coerce.number(),
  lon: z.coerce.number(),
  display_name: z.string().optional(),
  place_rank: z.coerce.number().optional(),
  // format=jsonv2 names the class `category`; format=json, `class`.
  category: z.string().optional(),
  class: z.string().optional(),
  type: z.string().optional(),
  osm_type: z.string().optional(),
});
const nominatimResults = z.array(nominatimResult);

/**
 * Nominatim's answer's precision (docs/geocoding.md, "Hosted geocoders"): a postcode by its type;
 * a house (place_rank 28-30) an address point, or interpolated when it is a `place=house` on a way
 * (an interpolation line or TIGER range); 26-27 a street; 13-25 a suburb, town or city; below, a
 * state or larger. Without a rank, a town's centre is assumed.
 */
export function nominatimPrecision(result: z.infer<typeof nominatimResult>): Precision {
  const category = result.category ?? result.class;
  const rank = result.place_rank;
  if (result.type === "postcode" || category === "postcode") return "postal_code";
  if (rank === undefined) return result.type === "state" ? "region" : "locality";
  if (rank >= 28) {
    return category === "place" && result.type === "house" && result.osm_type?.toLowerCase().startsWith("w") ? "interpolated" : "address_point";
  }
  if (rank >= 26) return "street";
  if (rank >= 13) return "locality";
  return "region";
}

/** Pelias's layers (its data model): which precision each is. */
const PELIAS_LAYER: Readonly<Record<string, Precision>> = lookupTable({
  address: "address_point",
  venue: "address_point",
  intersection: "intersection",
  street: "street",
  postalcode: "postal_code",
  neighbourhood: "locality",
  microhood: "locality",
  macrohood: "locality",
  borough: "locality",
  locality: "locality",
  localadmin: "locality",
});

const peliasFeatures = z.object({
  features: z.array(
    z.object({
      geometry: z.object({ coordinates: z.tuple([z.number(), z.number()]).rest(z.number()) }),
      properties: z.object({
        layer: z.string().optional(),
        match_type: z.string().optional(),
        accuracy: z.string().optional(),
        label: z.string().optional(),
      }),
    }),
  ),
});

/**
 * Pelias's feature's precision (docs/geocoding.md, "Hosted geocoders"): its layer, an address
 * `interpolated` (match_type) along its street's range; a venue (or address) only a centroid
 * (accuracy) is a street's worth; any layer not listed (county, region, country) a region.
 */
export function peliasPrecision(properties: z.infer<typeof peliasFeatures>["features"][number]["properties"]): Precision {
  const precision = PELIAS_LAYER[properties.layer ?? ""] ?? "region";
  if (precision !== "address_point") return precision;
  if (properties.match_type === "interpolated") return "interpolated";
  return properties.accuracy === "centroid" ? "street" : "address_point";
}

export interface HostedGeocoderOptions {
  /** Nominatim's API (`/search?q=`) or Pelias's (`/v1/search?text=`): GEOCODER_KIND. */
  kind: "nominatim" | "pelias";
  baseUrl: string;
  timeoutMs: number;
}

/** The service's JSON answer; GeocoderUnavailableError when it could not answer. */
async function fetchJson(url: URL, timeoutMs: number): Promise<unknown> {
  try {
    const response = await fetch(url, {
      // Nominatim's usage policy asks for an identifying User-Agent.
      headers: { accept: "application/json", "user-agent": "Mayday emergency-call intake" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    return await response.json();
  } catch (error) {
    throw new GeocoderUnavailableError(`Hosted geocoder failed: ${(error as Error).message}`, { cause: error });
  }
}

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new GeocoderUnavailableError("Hosted geocoder answered in an unknown format");
  return result.data;
}

const onEarth = (latitude: number, longitude: number) => Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;

function located(latitude: number, longitude: number, precision: Precision, source: "nominatim" | "pelias", label: string): GeocodeResult {
  return { latitude, longitude, precision, uncertaintyMeters: UNCERTAINTY_METRES[precision], source, label };
}

async function lookupNominatim(text: string, url: URL, timeoutMs: number): Promise<GeocodeResult | null> {
  url.pathname += "search";
  url.search = new URLSearchParams({ q: text, format: "jsonv2", limit: "1", countrycodes: "us" }).toString();
  const [first] = parsed(nominatimResults, await fetchJson(url, timeoutMs));
  if (!first || !onEarth(first.lat, first.lon)) return null;
  return located(first.lat, first.lon, nominatimPrecision(first), "nominatim", first.display_name ?? text);
}

async function lookupPelias(text: string, url: URL, timeoutMs: number): Promise<GeocodeResult | null> {
  url.pathname += "v1/search";
  url.search = new URLSearchParams({ text, size: "1", "boundary.country": "USA" }).toString();
  const [first] = parsed(peliasFeatures, await fetchJson(url, timeoutMs)).features;
  if (!first) return null;
  const [longitude, latitude] = first.geometry.coordinates;
  if (!onEarth(latitude, longitude)) return null;
  return located(latitude, longitude, peliasPrecision(first.properties), "pelias", first.properties.label ?? text);
}

/**
 * The hosted geocoder: a Nominatim-compatible `/search` endpoint (Nominatim itself, or a service
 * speaking its API), or a Pelias `/v1/search` (an agency's own). Null when it knows no such place;
 * GeocoderUnavailableError when it could not answer.
 */
export async function lookupHosted(text: string, options: HostedGeocoderOptions): Promise<GeocodeResult | null> {
  const url = new URL(options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
  return options.kind === "pelias" ? lookupPelias(text, url, options.timeoutMs) : lookupNominatim(text, url, options.timeoutMs);
}
