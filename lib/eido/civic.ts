import { segmentsOf } from "../geocoding/text";
import type { CivicAddress } from "../geocoding/types";
import { lookupTable } from "../lookup-table";

/**
 * The civic address elements (RFC 4119/5139) a spoken US location names, for the EIDO's PIDF-LO
 * when the centre's GIS matched no record (lib/geocoding/centre/civic-address.ts gives the record's):
 * house number, street and its suffix from the first comma-separated part when it reads as a
 * street ("1200 Sunset Blvd"), the state (A1, with country US) and ZIP from a part ending in one
 * (lib/geocoding/text.ts reads them as the geocoder does), and the city (A3) from the part naming
 * the state or the last part before it (runs of spaces as one). What the text does not say is left out; the words as
 * spoken are always in LOC.
 */

/** Street suffixes as written in full (the form of NENA's sample: "Street"). */
const SUFFIXES: Record<string, string> = lookupTable({
  st: "Street", street: "Street", ave: "Avenue", av: "Avenue", avenue: "Avenue", blvd: "Boulevard", boulevard: "Boulevard",
  rd: "Road", road: "Road", dr: "Drive", drive: "Drive", ln: "Lane", lane: "Lane", way: "Way", ct: "Court", court: "Court",
  pl: "Place", place: "Place", hwy: "Highway", highway: "Highway", pkwy: "Parkway", parkway: "Parkway", ter: "Terrace",
  terrace: "Terrace", cir: "Circle", circle: "Circle", trl: "Trail", trail: "Trail", pike: "Pike", row: "Row", sq: "Square",
  square: "Square", expy: "Expressway", expressway: "Expressway", fwy: "Freeway", freeway: "Freeway",
});

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** "1200 Sunset Blvd": house number, road and suffix; undefined when the part does not read as a street. */
function streetOf(part: string): Pick<CivicAddress, "HNO" | "RD" | "STS"> | undefined {
  const tokens = words(part);
  const number = /^\d+[A-Za-z]?$/.test(tokens[0] ?? "") && tokens.length > 1 ? tokens[0] : undefined;
  const rest = number ? tokens.slice(1) : tokens;
  const suffix = rest.length > 1 ? SUFFIXES[rest.at(-1)!.replace(/\.$/, "").toLowerCase()] : undefined;
  if (!number && !suffix) return undefined;
  const road = (suffix ? rest.slice(0, -1) : rest).join(" ");
  return { ...(number ? { HNO: number } : {}), ...(road ? { RD: road } : {}), ...(suffix ? { STS: suffix } : {}) };
}

export function civicAddressOf(spoken: string): CivicAddress {
  const parts = spoken.split(/[,;\n]+/).map((part) => part.trim().replace(/\s+/g, " ")).filter((part) => segmentsOf(part).length > 0);
  if (parts.length === 0) return {};
  const street = streetOf(parts[0]);
  const places = street ? parts.slice(1) : parts;
  const address: CivicAddress = { ...street };
  const stateAt = places.findIndex((part) => segmentsOf(part)[0].state !== undefined);
  if (stateAt >= 0) {
    const { state, zip, core } = segmentsOf(places[stateAt])[0];
    Object.assign(address, { country: "US", A1: state }, zip ? { PC: zip } : {});
    // "Nashville TN": the words before the state, as spoken; else the part before it.
    const city = core ? words(places[stateAt]).slice(0, words(core).length).join(" ") : places[stateAt - 1];
    if (city) address.A3 = city;
  } else if (places.length > 0) {
    address.A3 = places.at(-1);
  }
  return address;
}
