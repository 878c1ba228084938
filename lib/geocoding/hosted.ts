import { z } from "zod";
import { UNCERTAINTY_METRES } from "./precision";
import { GeocoderUnavailableError, type GeocodeResult, type Precision } from "./types";

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

export interface HostedGeocoderOptions {
  baseUrl: string;
  timeoutMs: number;
}

/**
 * A Nominatim-compatible `/search` endpoint (Nominatim itself, or a service speaking its API).
 * Null when it knows no such place; GeocoderUnavailableError when it could not answer.
 */
export async function lookupHosted(text: string, options: HostedGeocoderOptions): Promise<GeocodeResult | null> {
  const url = new URL("search", options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
  url.search = new URLSearchParams({ q: text, format: "jsonv2", limit: "1", countrycodes: "us" }).toString();
  let body: unknown;
  try {
    const response = await fetch(url, {
      // Nominatim's usage policy asks for an identifying User-Agent.
      headers: { accept: "application/json", "user-agent": "Mayday emergency-call intake" },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new GeocoderUnavailableError(`Hosted geocoder failed: ${(error as Error).message}`, { cause: error });
  }
  const parsed = nominatimResults.safeParse(body);
  if (!parsed.success) throw new GeocoderUnavailableError("Hosted geocoder answered in an unknown format");
  const [first] = parsed.data;
  if (!first || Math.abs(first.lat) > 90 || Math.abs(first.lon) > 180) return null;
  const precision = nominatimPrecision(first);
  return {
    latitude: first.lat,
    longitude: first.lon,
    precision,
    uncertaintyMeters: UNCERTAINTY_METRES[precision],
    source: "nominatim",
    label: first.display_name ?? text,
  };
}
