/**
 * How exact a located point is, best first (docs/geocoding.md): an address point of the centre's
 * GIS data; a point interpolated along a road centreline's address range; the crossing of two named
 * roads; somewhere on a named street; a ZIP code's centre; a town's or neighbourhood's centre; a
 * state or larger.
 */
export const PRECISIONS = ["address_point", "interpolated", "intersection", "street", "postal_code", "locality", "region"] as const;
export type Precision = (typeof PRECISIONS)[number];

/** Street level or better: close enough to group two calls on distance alone. */
export const STREET_LEVEL: readonly Precision[] = ["address_point", "interpolated", "intersection", "street"];

/**
 * Who located the point: the centre's own GIS data, a hosted geocoder (by name), the embedded
 * gazetteer, coordinates that came with the call (from the voice platform, or the simulation
 * generator), or the position a unit reported when it reported the call itself (lib/call-taking).
 */
export const LOCATION_SOURCES = ["centre_gis", "nominatim", "pelias", "gazetteer", "platform", "generator", "unit"] as const;
export type LocationSource = (typeof LOCATION_SOURCES)[number];

export interface GeocodeResult {
  latitude: number;
  longitude: number;
  precision: Precision;
  /** Radius in metres within which the true location lies (about 95%). */
  uncertaintyMeters: number;
  source: LocationSource;
  /** The place or address that was matched, for logs and the dashboard. */
  label: string;
  /**
   * The centre's GIS record matched, as civic address elements (lib/geocoding/centre/civic-address.ts);
   * only for `centre_gis`. The label is formatted from it.
   */
  civic?: CivicAddress;
}

/**
 * A US civic address as RFC 5139 (and RFC 5222's LoST) names its elements, with RFC 6848's two
 * prefixes (`STP`, `HNP`); each as the source wrote it, absent when it says nothing of it.
 */
export interface CivicAddress {
  country?: string;
  /** State. */
  A1?: string;
  /** City or community. */
  A3?: string;
  /** Leading street direction. */
  PRD?: string;
  /** Street type before the name ("US Highway" 19): RFC 6848's extension. */
  STP?: string;
  RD?: string;
  /** Street suffix (type after the name). */
  STS?: string;
  /** Trailing street direction. */
  POD?: string;
  /** House number prefix ("94-", "N103W"): RFC 6848's extension. */
  HNP?: string;
  HNO?: string;
  HNS?: string;
  PC?: string;
  UNIT?: string;
}


/** How exact a located point is and who placed it, without its label: what a call stores beside its point. */
export type CallPlacement = Pick<GeocodeResult, "precision" | "uncertaintyMeters" | "source">;

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
  /**
   * From the populated-place list (GeoNames' cities and neighbourhoods); false for a town known
   * only as the city name of ZIP codes, which is sometimes a post office's or a firm's ("Naval
   * Supply Center", "First Union Bank"): the geocoder knows both, the map names only the first.
   */
  populated: boolean;
}

/** A US ZIP code's centre, named after its city. */
export interface ZipPlace extends UsPoint {
  zip: string;
}

/** The hosted geocoder could not be asked (down, timeout, bad answer): worth a retry later. */
export class GeocoderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GeocoderUnavailableError";
  }
}
