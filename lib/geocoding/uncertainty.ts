import type { Precision } from "./types";

/** A typical 95% radius for a point of each precision, when the geocoder gives none of its own. */
export const TYPICAL_UNCERTAINTY_METERS: Record<Precision, number> = {
  address_point: 10,
  interpolated: 30,
  intersection: 30,
  street: 500,
  postal_code: 5_000,
  locality: 10_000,
  region: 100_000,
};
