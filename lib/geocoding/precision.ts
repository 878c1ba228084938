import { type Precision, STREET_LEVEL } from "./types";

/**
 * The uncertainty radius of a point of each precision, in metres (about 95% of true locations
 * within it; docs/geocoding.md, "Precision"). The one table: geocoders, writers of calls, the
 * dashboard and the EIDO export read it. A locality's radius grows with the place's size where a
 * geocoder knows it (localityUncertainty).
 */
export const UNCERTAINTY_METRES: Readonly<Record<Precision, number>> = {
  address_point: 10,
  interpolated: 30,
  intersection: 50,
  street: 500,
  postal_code: 3_000,
  locality: 3_000,
  region: 50_000,
};

/** A town's radius from its number of ZIP codes (a stand-in for its area): 3 km for one, at most 15 km. */
export function localityUncertainty(zipCount: number): number {
  return Math.min(15_000, Math.round(UNCERTAINTY_METRES.locality * Math.sqrt(Math.max(1, zipCount))));
}

/** Street level or better: grouped on distance alone (docs/incidents.md, "Grouping"). Unknown is coarse. */
export function isStreetLevel(precision: Precision | null | undefined): boolean {
  return precision != null && STREET_LEVEL.includes(precision);
}
