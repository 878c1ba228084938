declare module "parse-address" {
  /** The parts parse-address recognises in a US address; absent when not found. */
  export interface ParsedLocation {
    number?: string;
    prefix?: string;
    street?: string;
    type?: string;
    suffix?: string;
    sec_unit_type?: string;
    sec_unit_num?: string;
    city?: string;
    state?: string;
    zip?: string;
  }
  export function parseLocation(text: string): ParsedLocation | null;
}
