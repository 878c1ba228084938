import { isStreetLevel, UNCERTAINTY_METRES } from "@/lib/geocoding/precision";
import type { Precision } from "@/lib/geocoding/types";

/**
 * How exact a location is, in the dispatcher's words (docs/dashboard.md, "Precision"): what the
 * point stands for and, past an address point, its radius ("town centre, about 3 km").
 */
const PRECISION_WORDS: Record<Precision, string> = {
  address_point: "address point",
  interpolated: "address on its street's range",
  intersection: "intersection",
  street: "street",
  postal_code: "ZIP code centre",
  locality: "town centre",
  region: "region",
};

/** "about 500 m", "about 3 km". */
export function formatRadius(metres: number): string {
  return metres < 1_000 ? `about ${Math.round(metres)} m` : `about ${Math.round(metres / 1_000)} km`;
}

/** A distance between two points: "80 m", "1.2 km". */
export function formatDistance(metres: number): string {
  return metres < 1_000 ? `${Math.round(metres)} m` : `${(metres / 1_000).toFixed(1)} km`;
}

/** The address shown: the one the centre's GIS matched, in its standard form, with the caller's words beside it ("said: ..."). */
export function shownAddress({ location, location_matched }: { location: string; location_matched: string | null }): string {
  return location_matched && location_matched !== location ? `${location_matched} (said: ${location})` : location;
}

/** How far apart a possible duplicate is, in place and time: "223 m, 4 min apart". */
export function duplicateApart({ distance_m, seconds_apart }: { distance_m: number; seconds_apart: number }): string {
  const time = seconds_apart < 60 ? `${seconds_apart} s` : `${Math.round(seconds_apart / 60)} min`;
  return `${formatDistance(distance_m)}, ${time} apart`;
}

export function precisionLabel(precision: Precision | null, uncertaintyMetres?: number | null): string {
  if (precision === null) return "precision unknown";
  if (precision === "address_point") return PRECISION_WORDS[precision];
  return `${PRECISION_WORDS[precision]}, ${formatRadius(uncertaintyMetres ?? UNCERTAINTY_METRES[precision])}`;
}

/** Decimals worth printing: 5 (about a metre) for a point, 3 for a street, 2 for a town, 1 for a region. */
const DECIMALS: Record<Precision, number> = {
  address_point: 5,
  interpolated: 5,
  intersection: 4,
  street: 3,
  postal_code: 2,
  locality: 2,
  region: 1,
};

/** Coordinates printed at the precision they have (unknown: 4 decimals, about 10 m). */
export function formatCoordinates(latitude: number, longitude: number, precision: Precision | null): string {
  const decimals = precision === null ? 4 : DECIMALS[precision];
  return `${latitude.toFixed(decimals)}, ${longitude.toFixed(decimals)}`;
}

/** The radius of an uncertainty circle on the map: only for a point coarser than a street. */
export function uncertaintyCircle(precision: Precision | null, uncertaintyMetres?: number | null): number | null {
  if (precision === null || isStreetLevel(precision)) return null;
  return uncertaintyMetres ?? UNCERTAINTY_METRES[precision];
}
