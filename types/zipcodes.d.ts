// The parts of `zipcodes` (BSD) that lib/geocoding uses; the package ships no types.
declare module "zipcodes" {
  interface ZipCode {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export const codes: Record<string, ZipCode>;
}
