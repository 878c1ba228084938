import { z } from "zod";
import { GeocoderUnavailableError, type GeocodeResult, type Precision } from "./types";
import { TYPICAL_UNCERTAINTY_METERS } from "./uncertainty";

const nominatimResults = z.array(
  z.object({
    lat: z.coerce.number(),
    lon: z.coerce.number(),
    display_name: z.string().optional(),
    place_rank: z.coerce.number().optional(),
  }),
);

/** Nominatim's place_rank scale: 30 a house, 26-27 a street, 17-25 a suburb or area, 13-16 a town. */
function precisionOf(rank: number | undefined): Precision {
  if (rank === undefined) return "locality";
  if (rank >= 28) return "address_point";
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
  const precision = precisionOf(first.place_rank);
  return {
    latitude: first.lat,
    longitude: first.lon,
    precision,
    uncertaintyMeters: TYPICAL_UNCERTAINTY_METERS[precision],
    source: "nominatim",
    label: first.display_name ?? text,
  };
}
