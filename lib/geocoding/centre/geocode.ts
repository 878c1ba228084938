import { normalise, segmentsOf } from "../text";
import type { CivicAddress, GeocodeResult, Precision } from "../types";
import { UNCERTAINTY_METRES } from "../precision";
import type { LonLat } from "./geometry";
import type { CentreIndex, Street } from "./centre-index";
import { type SaidAddress, saidAddresses } from "./address-text";
import { civicOfMatch, matchedAddressLabel } from "./civic-address";
import { directional, preTypeDistance, spokenStreet, type StreetName, streetLabel, streetReadings } from "./usps";

/** "I'm at", "we're on", "near": words before a crossing or a street named without a number. */
const LEADING_WORDS = /^(?:(?:i am|i'?m|we are|we'?re|it'?s|this is)\s+)?(?:at|on|near|by)\s+/i;
const INTERSECTION = /^(?:(?:the\s+)?corner\s+of\s+)?(.+?)\s+(?:and|&|at|@|\/)\s+(.+)$/i;
const UNIT_PART = /^(?:apt|apartment|unit|suite|ste|room|rm|lot|#)\.?\s*#?\s*([a-z0-9-]+)$/i;
const MIN_STREET_UNCERTAINTY_M = 100;
/** Words before a community ("in Springfield", "near Springfield"). */
const PLACE_WORDS = new Set(["in", "near", "at", "around", "by", "outside", "of"]);
/** Trailing words taken for a community the data does not hold ("... Road Evanston"), at most. */
const MAX_UNKNOWN_PLACE_WORDS = 3;

/** Where the caller says it is: the community or ZIP they named, if the GIS data knows them. */
export interface Context {
  community?: string;
  zip?: string;
  /** Only a street of a named community will do (the scenario street set: its names recur across areas). */
  requireCommunity?: boolean;
}

export interface Candidate {
  id: number;
  street: Street;
  score: number;
}

const directionOf = (street: StreetName) => street.preDir || street.postDir;

/**
 * How well a street fits what was said (lower is better): typing errors weigh most, then a
 * direction, suffix or road type that disagrees ("S Main" for "N Main St", "County Road 7" for
 * "State Road 7"); one the caller left out costs little, so "Main St" still finds "N Main St"
 * when no plain Main St exists, and "Highway 19" finds "US Highway 19".
 */
function fit(said: StreetName, street: Street, typos: number): number {
  const saidDirection = directionOf(said);
  const streetDirection = directionOf(street);
  let score = typos * 10;
  if (saidDirection && streetDirection && saidDirection !== streetDirection) score += 6;
  else if (saidDirection && !streetDirection) score += 3;
  else if (!saidDirection && streetDirection) score += 1;
  if (said.postType && said.postType !== street.postType && said.postType !== street.preType) score += 3;
  return score + preTypeDistance(said.preType, street.preType);
}

/**
 * The streets the words may name, best first: each reading of the words (usps.ts,
 * `streetReadings`) looked up by name, the first also within its typing errors, the others exactly
 * and a little behind; then only the named community's, or the said ZIP's when it names streets.
 */
export function candidates(index: CentreIndex, words: string, context: Context): Candidate[] {
  if (context.requireCommunity && !context.community) return [];
  const best = new Map<number, Candidate>();
  streetReadings(words).forEach((said, reading) => {
    const named = reading === 0 ? index.streetsNamed(said.name) : index.streetsNamedExactly(said.name);
    for (const { street: id, typos } of named) {
      const street = index.streets[id];
      if (context.community && street.community !== context.community) continue;
      const score = fit(said, street, typos) + reading;
      if ((best.get(id)?.score ?? Infinity) > score) best.set(id, { id, street, score });
    }
  });
  let found = [...best.values()];
  const inZip = context.zip && !context.community ? found.filter((candidate) => candidate.street.postCode === context.zip) : [];
  if (inZip.length > 0) found = inZip;
  return found.sort((a, b) => a.score - b.score);
}

/** A point of the centre's GIS, with the record it matched; labelled in the record's standard form unless a crossing names two streets. */
export function located(point: LonLat, precision: Precision, civic: CivicAddress, label = matchedAddressLabel(civic), uncertaintyMeters = UNCERTAINTY_METRES[precision]): GeocodeResult {
  return { latitude: point.lat, longitude: point.lon, precision, uncertaintyMeters, source: "centre_gis", label, civic };
}

function streetOnly(index: CentreIndex, found: Candidate[]): GeocodeResult | null {
  const [best] = found;
  return best ? streetMiddleOf(index, best) : null;
}

/** A street as a place: its middle, uncertain by half its length. */
export function streetMiddleOf(index: CentreIndex, { id, street }: Pick<Candidate, "id" | "street">): GeocodeResult | null {
  const middle = index.streetMiddle(id);
  if (!middle) return null;
  const civic = civicOfMatch(street, street.written);
  return located(middle.point, "street", civic, undefined, Math.max(MIN_STREET_UNCERTAINTY_M, Math.round(middle.halfLengthMeters)));
}

/** One way to tell the street's words from the community's. */
interface Reading {
  street: string[];
  community?: string;
  /** The caller named a community or ZIP the data does not hold: only an address the data holds in one community will do. */
  unknownPlace: boolean;
  /** How much less likely this reading is than the plain one. */
  penalty: number;
}

const withoutPlaceWords = (words: string[]) => {
  const place = [...words];
  while (place.length > 1 && PLACE_WORDS.has(place[0])) place.shift();
  return place.join(" ");
};

/**
 * The readings of the words after the number: parts after commas are a quadrant ("1800 M Street,
 * NW"), or a community, known or not; without a comma, "in <community>" or a community the data
 * holds at the end ("27 Washington Oak Park"), else the words are the street, else up to three
 * last words are a place the data does not hold ("... Gross Point Road Evanston").
 */
function readingsOf(index: CentreIndex, said: SaidAddress): Reading[] {
  const parts: string[][] = [[]];
  for (const word of said.words) {
    if (word === ",") parts.push([]);
    else parts.at(-1)!.push(word);
  }
  let street = parts[0];
  let community: string | undefined;
  let unknown = !!said.zip && !index.postCodes.has(said.zip);
  for (const part of parts.slice(1)) {
    if (part.length === 1 && directional(part[0])) street = [...street, part[0]];
    else if (index.communities.has(withoutPlaceWords(part))) community = withoutPlaceWords(part);
    else if (part.length > 0) unknown = true;
  }
  const readings: Reading[] = [];
  const inAt = street.lastIndexOf("in");
  if (inAt > 0 && inAt < street.length - 1) {
    const place = street.slice(inAt + 1).join(" ");
    const known = index.communities.has(place);
    readings.push({ street: street.slice(0, inAt), community: known ? place : community, unknownPlace: !known && !community, penalty: 0 });
  }
  let tailCommunity = false;
  if (!community && !unknown) {
    for (let length = Math.min(4, street.length - 1); length >= 1 && !tailCommunity; length--) {
      const tail = street.slice(-length).join(" ");
      if (!index.communities.has(tail)) continue;
      readings.push({ street: street.slice(0, -length), community: tail, unknownPlace: false, penalty: 0 });
      tailCommunity = true;
    }
  }
  readings.push({ street, community, unknownPlace: unknown && !community, penalty: inAt > 0 ? 2 : 0 });
  if (!community && !unknown && inAt < 0 && !tailCommunity) {
    for (let length = 1; length <= Math.min(MAX_UNKNOWN_PLACE_WORDS, street.length - 1); length++) {
      readings.push({ street: street.slice(0, -length), unknownPlace: true, penalty: 1 + length });
    }
  }
  return readings;
}

/**
 * The said number on the best-fitting streets: the address point, else the number along a
 * centreline; none when two streets fit equally well and both have the number ("1800 M St" with
 * an NW and an SE one, or one in each of two communities when none was named): the caller did not
 * say which.
 */
function atNumber(index: CentreIndex, found: Candidate[], said: SaidAddress): { result: GeocodeResult; score: number } | undefined {
  let first: { result: GeocodeResult; score: number } | undefined;
  for (const candidate of found) {
    if (first && candidate.score > first.score) break;
    const result = houseOn(index, candidate, said);
    if (!result) continue;
    if (first) return undefined;
    first = { result, score: candidate.score };
  }
  return first;
}

/** The said number on one street: its address point, else the number along a centreline; undefined when neither has it. */
export function houseOn(index: CentreIndex, { id, street }: Pick<Candidate, "id" | "street">, said: Pick<SaidAddress, "number" | "numberPrefix" | "numberSuffix" | "unit">): GeocodeResult | undefined {
  const point = index.addressPoint(id, said.number, said);
  if (point) {
    const record = index.pointAddress(point.point);
    return located(point, "address_point", civicOfMatch(street, record.place, record.number));
  }
  const along = index.interpolate(id, said.number);
  if (!along) return undefined;
  // A number placed along a street is the one said ("525 1/2" said "525 1 2").
  const saidNumber = {
    number: said.number,
    prefix: said.numberPrefix?.toUpperCase(),
    suffix: said.numberSuffix?.replace(" ", "/").toUpperCase(),
    unit: said.unit?.toUpperCase(),
  };
  return located(along, "interpolated", civicOfMatch(street, street.written, saidNumber));
}

/** The best answer for a text with a house number, and the street-level answer kept in case none is found. */
/** Whether a two-letter word is a state's code: written in capitals, or a state the data holds. */
function stateCodeReader(index: CentreIndex, text: string): (code: string) => boolean {
  const capitals = new Set((text.match(/\b[A-Z]{2}\b/g) ?? []).map((code) => code.toLowerCase()));
  return (code) => capitals.has(code) || index.states.has(code.toUpperCase());
}

function addressOf(index: CentreIndex, text: string, options: { requireCommunity?: boolean }): { best?: GeocodeResult; street: () => GeocodeResult | null } {
  const isStateCode = stateCodeReader(index, text);
  let best: { result: GeocodeResult; score: number } | undefined;
  // The street-level answer is worked out only if no reading finds the house (a street's middle reads all its points).
  let streetFound: Candidate[] | undefined;
  for (const said of saidAddresses(text, isStateCode)) {
    if (said.state && index.states.size > 0 && !index.states.has(said.state)) continue;
    for (const reading of readingsOf(index, said)) {
      // "Hwy 19 and Oak Ave": a crossing, for crossingOrStreet.
      if (reading.street.length === 0 || reading.street.includes("and")) continue;
      const context: Context = { community: reading.community, zip: said.zip, requireCommunity: options.requireCommunity };
      const found = candidates(index, reading.street.join(" "), context);
      const hit = atNumber(index, found, said);
      if (hit && (!best || hit.score + reading.penalty < best.score)) best = { result: hit.result, score: hit.score + reading.penalty };
      if (!hit && !streetFound && !reading.unknownPlace && found.length > 0) streetFound = found;
      if (best?.score === 0) break;
    }
    if (best?.score === 0) break;
  }
  return { best: best?.result, street: () => (streetFound ? streetOnly(index, streetFound) : null) };
}

/**
 * Every house a text with a house number may name, each with how well its street fits (lower is
 * better): the readings addressOf weighs, every fitting street's house kept rather than the one
 * best (GET /api/locations offers them all: "372 N 8th St" in each community that has one).
 */
export function housesNamed(index: CentreIndex, text: string): { result: GeocodeResult; score: number }[] {
  const isStateCode = stateCodeReader(index, text);
  const houses: { result: GeocodeResult; score: number }[] = [];
  for (const said of saidAddresses(text, isStateCode)) {
    if (said.state && index.states.size > 0 && !index.states.has(said.state)) continue;
    for (const reading of readingsOf(index, said)) {
      if (reading.street.length === 0 || reading.street.includes("and")) continue;
      for (const candidate of candidates(index, reading.street.join(" "), { community: reading.community, zip: said.zip })) {
        const result = houseOn(index, candidate, said);
        if (result) houses.push({ result, score: candidate.score + reading.penalty });
      }
    }
  }
  return houses;
}

/**
 * The parts after the first comma of a crossing or a street without a number: a unit ("apt 4",
 * passed over), or a community, ZIP or state. Undefined when one of them names a place the GIS
 * data does not cover ("Collins Ave, Miami Beach" in a county without Miami Beach): that address
 * is someone else's, for the gazetteer or hosted geocoder.
 */
function contextOf(index: CentreIndex, parts: string[]): Context | undefined {
  const context: Context = {};
  for (const part of parts) {
    if (UNIT_PART.test(part)) continue;
    for (const segment of segmentsOf(part)) {
      if (segment.zip && !index.postCodes.has(segment.zip)) return undefined;
      if (segment.state && index.states.size > 0 && !index.states.has(segment.state)) return undefined;
      const place = segment.state || segment.zip ? segment.core : normalise(part);
      if (!place) continue;
      if (!index.communities.has(place)) return undefined;
      context.community = place;
    }
  }
  return context;
}

/** "X and Y Springfield", "Oak Ave in Springfield": a known community at the end of the street part, without its comma. */
function trailingCommunity(index: CentreIndex, words: string[]): { words: string[]; community?: string } {
  for (let length = Math.min(3, words.length - 1); length >= 1; length--) {
    const tail = words.slice(-length).join(" ");
    if (!index.communities.has(tail)) continue;
    const rest = words.slice(0, -length);
    if (rest.length > 1 && PLACE_WORDS.has(rest.at(-1)!)) rest.pop();
    return { words: rest, community: tail };
  }
  return { words };
}

function intersection(index: CentreIndex, first: string, second: string, context: Context): GeocodeResult | null {
  const firstStreets = candidates(index, first, context);
  const secondStreets = candidates(index, second, context);
  if (firstStreets.length === 0 || secondStreets.length === 0) return null;
  const pairs = firstStreets
    .flatMap((a) => secondStreets.map((b) => ({ a, b, score: a.score + b.score })))
    .sort((x, y) => x.score - y.score);
  for (const { a, b } of pairs) {
    const point = index.intersection(a.id, b.id);
    // The crossing's civic address is its first street's, its words (LOC in the EIDO) name both.
    if (point) return located(point, "intersection", civicOfMatch(a.street, a.street.written), `${a.street.label.split(",")[0]} & ${b.street.label}`);
  }
  return streetOnly(index, firstStreets);
}

/** A crossing ("X and Y"), or a street named without a number. */
function crossingOrStreet(index: CentreIndex, text: string, options: { requireCommunity?: boolean }): GeocodeResult | null {
  const [first = "", ...rest] = text.split(/[,;\n]+/).map((part) => part.trim()).filter(Boolean);
  const named = contextOf(index, rest);
  if (!named) return null;
  const context: Context = { ...named, requireCommunity: options.requireCommunity };
  const streetPart = first.replace(LEADING_WORDS, "");
  if (/^\d+\s/.test(streetPart)) return null;
  const crossing = INTERSECTION.exec(streetPart);
  if (crossing) {
    const tail = trailingCommunity(index, normalise(crossing[2]).split(" "));
    return intersection(index, crossing[1], tail.words.join(" "), { ...context, community: context.community ?? tail.community });
  }
  const tail = trailingCommunity(index, normalise(streetPart).split(" ").filter(Boolean));
  return streetOnly(index, candidates(index, tail.words.join(" "), { ...context, community: context.community ?? tail.community }));
}

/**
 * A spoken or written location from the centre's own GIS data (docs/geocoding.md, "The centre's
 * GIS data"): the address point of the number on the street; else the number placed along the
 * centreline whose range holds it; for "X and Y", the crossing of the two streets; else the
 * street itself. Null when the text names no street of the data, or a place it does not cover.
 */
export function geocodeWithCentreIndex(index: CentreIndex, text: string, options: { requireCommunity?: boolean } = {}): GeocodeResult | null {
  const { best, street } = addressOf(index, text, options);
  return best ?? crossingOrStreet(index, text, options) ?? street();
}

/** Streets a location names that the centre's GIS does not have, in a community it covers. */
export interface StreetsNotInData {
  /** The community, as the data's index names it (lower case). */
  community: string;
  /** Each street not found there, in its standard form ("Main St"). */
  streets: string[];
}

/**
 * The streets a location names that the centre's GIS data does not have in the community it names,
 * a community the data covers ("Main St and 5th St, Springfield" where Springfield has no Main
 * St). For a correction (lib/calls/correct-call.ts), which a person confirms before such a place
 * is taken. Undefined when the text names no community of the data, names no street (a house
 * number and words, a crossing, or words with a street type: "downtown, Springfield" is a place,
 * not a street), or only streets the data has there (typing errors allowed as in a lookup).
 */
export function streetsNotInCentreIndex(index: CentreIndex, text: string): StreetsNotInData | undefined {
  const [first = "", ...rest] = text.split(/[,;\n]+/).map((part) => part.trim()).filter(Boolean);
  const named = contextOf(index, rest);
  if (!named) return undefined;
  const streetPart = first.replace(LEADING_WORDS, "");
  const crossing = INTERSECTION.exec(streetPart);
  let community = named.community;
  let said: string[];
  if (crossing) {
    const tail = trailingCommunity(index, normalise(crossing[2]).split(" "));
    community ??= tail.community;
    said = [normalise(crossing[1]), tail.words.join(" ")];
  } else {
    const tail = trailingCommunity(index, normalise(streetPart).split(" ").filter(Boolean));
    community ??= tail.community;
    const numbered = /^\d/.test(tail.words[0] ?? "");
    const words = (numbered ? tail.words.slice(1) : tail.words).join(" ");
    const street = spokenStreet(words);
    if (!street.name || (!numbered && !street.postType && !street.preType)) return undefined;
    said = [words];
  }
  if (!community || said.some((words) => !words)) return undefined;
  const missing = said.filter((words) => candidates(index, words, { community }).length === 0);
  return missing.length > 0 ? { community, streets: missing.map((words) => streetLabel(spokenStreet(words))) } : undefined;
}
