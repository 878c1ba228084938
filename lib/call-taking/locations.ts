import { centreCandidates, TYPED_TEXT_LIMIT } from "../geocoding/centre/candidates";
import { getCentreIndex } from "../geocoding/centre/loaded";
import { DomainError } from "../domain-error";
import { getGeocoder } from "../geocoding/geocoder";
import { type GeocodeResult, GeocoderUnavailableError } from "../geocoding/types";
import { GEOCODE_TEXT_LIMIT } from "../calls/sanitise";
import { CANDIDATES_MAX, type LocationCandidate, type LocationCandidates } from "./schema";

/**
 * GET /api/locations?q=: where a location typed so far may be (docs/calls.md, "A call a person
 * takes"). The centre's GIS first (lib/geocoding/centre/candidates.ts: address points, numbers along
 * a centreline, crossings, streets, from the in-memory index); when it has nothing, the geocoder
 * every call goes through (the hosted geocoder, cached per text, then the gazetteer), one answer.
 */
async function candidateResults(text: string, limit: number): Promise<GeocodeResult[]> {
  const index = await getCentreIndex();
  const fromGis = index ? centreCandidates(index, text.slice(0, TYPED_TEXT_LIMIT), limit) : [];
  if (fromGis.length > 0) return fromGis;
  try {
    const found = await getGeocoder().geocode(text.slice(0, GEOCODE_TEXT_LIMIT));
    return found ? [found] : [];
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    throw new DomainError("GEOCODING_ERROR", "The geocoder could not be reached and the centre's GIS has no candidate: try again, or keep the words as typed", { cause: error });
  }
}

/** A candidate's id: where it is and how exact, as its source placed it (the same text and data, the same id). */
const candidateId = (result: GeocodeResult) =>
  `${result.source}:${result.precision}:${result.latitude.toFixed(7)},${result.longitude.toFixed(7)}`;

const asCandidate = (result: GeocodeResult): LocationCandidate => ({
  id: candidateId(result),
  label: result.label,
  precision: result.precision,
  source: result.source,
  latitude: result.latitude,
  longitude: result.longitude,
  uncertainty_m: result.uncertaintyMeters,
});

export async function locationCandidates({ q, limit }: { q: string; limit?: number }): Promise<LocationCandidates> {
  return { q, candidates: (await candidateResults(q, limit ?? CANDIDATES_MAX)).map(asCandidate) };
}

/** The candidate `id` among those of `text` (as GET /api/locations answers them); undefined when it is no longer one. */
export async function chosenCandidate(text: string, id: string): Promise<GeocodeResult | undefined> {
  return (await candidateResults(text, CANDIDATES_MAX)).find((result) => candidateId(result) === id);
}
