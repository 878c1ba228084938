/** How exact a geocoded point is: the dashboard can show an area-level point differently. */
export type Precision = "address" | "street" | "postal_code" | "area" | "city" | "region";

/** A named point in the United States: a place, a ZIP code's centre or a scenario area. */
export interface UsPoint {
  name: string;
  /** Two-letter US state code. */
  state: string;
  latitude: number;
  longitude: number;
}

/** A town or neighbourhood from the offline place lists (lib/geocoding/place-sources.ts). */
export interface Place extends UsPoint {
  /** ZIP codes of the place: a stand-in for its size when a name is ambiguous. */
  zipCount: number;
}

/** A US ZIP code's centre, named after its city. */
export interface ZipPlace extends UsPoint {
  zip: string;
}

export interface GeocodeResult {
  latitude: number;
  longitude: number;
  precision: Precision;
  /** Which geocoder answered; stored as the record's geocode_source. */
  source: "gazetteer" | "hosted";
  /** The place that was matched, for logs. */
  label: string;
}

/** The hosted geocoder could not be asked (down, timeout, bad answer): worth a retry later. */
export class GeocoderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GeocoderUnavailableError";
  }
}
