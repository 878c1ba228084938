import { getConfig } from "../config";
import { log } from "../log";
import { geocodeWithCentreData } from "./centre/loaded";
import { lookupGazetteer } from "./gazetteer";
import { lookupHosted } from "./hosted";
import { locateOnScenarioStreets } from "./scenario-streets";
import { normalise } from "./text";
import { GeocoderUnavailableError, type GeocodeResult } from "./types";

export { GeocoderUnavailableError, type GeocodeResult, type Precision } from "./types";

export interface Geocoder {
  /**
   * Coordinates for a spoken location, or null when no geocoder knows it. Throws
   * GeocoderUnavailableError when the hosted geocoder could not answer and the gazetteer does not
   * know the place either: a later retry may still find it.
   */
  geocode(text: string): Promise<GeocodeResult | null>;
}

/** A bounded map in insertion order: the oldest entry goes first. */
class ResultCache {
  private readonly entries = new Map<string, { result: GeocodeResult | null; expires: number }>();

  constructor(private readonly maxEntries: number) {}

  get(key: string): GeocodeResult | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires < Date.now()) return undefined;
    this.entries.set(key, entry);
    return entry.result;
  }

  set(key: string, result: GeocodeResult | null, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { result, expires: Date.now() + ttlMs });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}

const FOUND_TTL_MS = 24 * 60 * 60 * 1000;
// "Not found" may change when the hosted geocoder's data does: keep it for a shorter time.
const NOT_FOUND_TTL_MS = 60 * 60 * 1000;

export interface GeocoderOptions {
  /** The hosted geocoder's base URL; unset: the embedded gazetteer only. */
  hostedUrl?: string;
  /** Its API: Nominatim's (default) or Pelias's. */
  hostedKind?: "nominatim" | "pelias";
  timeoutMs: number;
  cacheEntries?: number;
  /** The centre's own GIS data (and a training installation's scenario street set), asked first: street level or nothing. */
  centre?: (text: string) => Promise<GeocodeResult | null>;
}

/**
 * The centre's GIS data first (an in-memory index, not cached here: a re-import shows at once),
 * then the hosted geocoder (Nominatim or Pelias; it can resolve street addresses), the embedded gazetteer when the
 * hosted one knows nothing or is down. Their answers, including "nothing found", are cached per
 * normalised text; failures are not, so the next delivery asks again.
 */
export function createGeocoder(options: GeocoderOptions): Geocoder {
  const cache = new ResultCache(options.cacheEntries ?? 10_000);
  return {
    async geocode(text) {
      const key = normalise(text);
      if (!key) return null;
      const centre = await options.centre?.(text);
      if (centre) return centre;
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      let hostedFailure: GeocoderUnavailableError | undefined;
      let result: GeocodeResult | null = null;
      if (options.hostedUrl) {
        try {
          result = await lookupHosted(text, {
            kind: options.hostedKind ?? "nominatim",
            baseUrl: options.hostedUrl,
            timeoutMs: options.timeoutMs,
          });
        } catch (error) {
          if (!(error instanceof GeocoderUnavailableError)) throw error;
          hostedFailure = error;
          log.warn({ err: error.message }, "hosted geocoder unavailable, using the gazetteer");
        }
      }
      result ??= await lookupGazetteer(text);
      if (hostedFailure) {
        // A gazetteer answer is good enough to keep; its absence is not a verdict.
        if (!result) throw hostedFailure;
        return result;
      }
      cache.set(key, result, result ? FOUND_TTL_MS : NOT_FOUND_TTL_MS);
      return result;
    },
  };
}

let current: { key: string; geocoder: Geocoder } | undefined;

/** The geocoder for the current configuration (tests change GEOCODER_URL between cases). */
export function getGeocoder(): Geocoder {
  const config = getConfig();
  const key = `${config.GEOCODER_URL ?? ""}|${config.GEOCODER_KIND}|${config.GEOCODER_TIMEOUT_MS}|${config.GEOCODER_SCENARIO_STREETS}`;
  if (current?.key !== key) {
    current = {
      key,
      geocoder: createGeocoder({
        hostedUrl: config.GEOCODER_URL,
        hostedKind: config.GEOCODER_KIND,
        timeoutMs: config.GEOCODER_TIMEOUT_MS,
        // The generator's order (lib/simulation/generate.ts): the centre's data, then the scenario street set.
        centre: config.GEOCODER_SCENARIO_STREETS
          ? async (text) => (await geocodeWithCentreData(text)) ?? locateOnScenarioStreets(text)
          : geocodeWithCentreData,
      }),
    };
  }
  return current.geocoder;
}
