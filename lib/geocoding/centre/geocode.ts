import { parseLocation } from "parse-address";
import { normalise, segmentsOf } from "../text";
import type { GeocodeResult, Precision } from "../types";
import { UNCERTAINTY_METRES } from "../precision";
import type { LonLat } from "./geometry";
import type { CentreIndex, Street } from "./centre-index";
import { spokenStreet, type StreetName } from "./usps";

/** "I'm at", "we're on", "near": words before the address itself. */
const LEADING_WORDS = /^(?:(?:i am|i'?m|we are|we'?re|it'?s|this is)\s+)?(?:at|on|near|by)\s+/i;
const INTERSECTION = /^(?:(?:the\s+)?corner\s+of\s+)?(.+?)\s+(?:and|&|at|@|\/)\s+(.+)$/i;
const UNIT_PART = /^(?:apt|apartment|unit|suite|ste|room|rm|lot|#)\.?\s*#?\s*([a-z0-9-]+)$/i;
const MIN_STREET_UNCERTAINTY_M = 100;

/** Where the caller says it is: the community, ZIP or state they named, if the GIS data knows them. */
interface Context {
  community?: string;
  unit?: string;
  /** Only a street of a named community will do (the scenario street set: its names recur across areas). */
  requireCommunity?: boolean;
}

interface Candidate {
  id: number;
  street: Street;
  score: number;
}

const directionOf = (street: StreetName) => street.preDir || street.postDir;

/**
 * How well a street fits what was said (lower is better): typing errors weigh most, then a
 * direction or suffix that disagrees ("S Main" for "N Main St"); one the caller left out costs
 * little, so "Main St" still finds "N Main St" when no plain Main St exists.
 */
function fit(said: StreetName, street: Street, typos: number): number {
  const saidDirection = directionOf(said);
  const streetDirection = directionOf(street);
  let score = typos * 10;
  if (saidDirection && streetDirection && saidDirection !== streetDirection) score += 6;
  else if (saidDirection && !streetDirection) score += 3;
  else if (!saidDirection && streetDirection) score += 1;
  if (said.postType && said.postType !== street.postType && said.postType !== street.preType) score += 3;
  return score;
}

function candidates(index: CentreIndex, said: StreetName, context: Context): Candidate[] {
  if (!said.name || (context.requireCommunity && !context.community)) return [];
  return index
    .streetsNamed(said.name)
    .map(({ street: id, typos }) => ({ id, street: index.streets[id], score: fit(said, index.streets[id], typos) }))
    .filter((candidate) => !context.community || candidate.street.community === context.community)
    .sort((a, b) => a.score - b.score);
}

function located(point: LonLat, precision: Precision, label: string, uncertaintyMeters = UNCERTAINTY_METRES[precision]): GeocodeResult {
  return { latitude: point.lat, longitude: point.lon, precision, uncertaintyMeters, source: "centre_gis", label };
}

function streetOnly(index: CentreIndex, found: Candidate[]): GeocodeResult | null {
  const [best] = found;
  const middle = best && index.streetMiddle(best.id);
  if (!middle) return null;
  return located(middle.point, "street", best.street.label, Math.max(MIN_STREET_UNCERTAINTY_M, Math.round(middle.halfLengthMeters)));
}

/**
 * The parts after the first comma: a unit ("apt 4"), or a community, ZIP or state. Undefined when
 * one of them names a place the GIS data does not cover ("Collins Ave, Miami Beach" in a county
 * without Miami Beach): that address is someone else's, for the gazetteer or hosted geocoder.
 */
function contextOf(index: CentreIndex, parts: string[]): Context | undefined {
  const context: Context = {};
  for (const part of parts) {
    const unit = UNIT_PART.exec(part);
    if (unit) {
      context.unit = normalise(unit[1]);
      continue;
    }
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

/** "1200 Oak Ave Springfield": a known community at the end of the street part, without its comma. */
function trailingCommunity(index: CentreIndex, words: string[]): { words: string[]; community?: string } {
  for (let length = Math.min(3, words.length - 1); length >= 1; length--) {
    const tail = words.slice(-length).join(" ");
    if (index.communities.has(tail)) return { words: words.slice(0, -length), community: tail };
  }
  return { words };
}

function intersection(index: CentreIndex, first: string, second: string, context: Context): GeocodeResult | null {
  const firstStreets = candidates(index, spokenStreet(first), context);
  const secondStreets = candidates(index, spokenStreet(second), context);
  if (firstStreets.length === 0 || secondStreets.length === 0) return null;
  const pairs = firstStreets
    .flatMap((a) => secondStreets.map((b) => ({ a, b, score: a.score + b.score })))
    .sort((x, y) => x.score - y.score);
  for (const { a, b } of pairs) {
    const point = index.intersection(a.id, b.id);
    if (point) return located(point, "intersection", `${a.street.label.split(",")[0]} & ${b.street.label}`);
  }
  return streetOnly(index, firstStreets);
}

/** The number, its letter ("12B") and the unit of a "number street" part, with the street's own words. */
function addressParts(text: string): { number?: number; numberSuffix?: string; unit?: string; street: string } {
  const parsed = parseLocation(text);
  const number = parsed?.number ? Number(parsed.number) : undefined;
  if (number === undefined || !Number.isSafeInteger(number)) return { street: text };
  // "12B Main St": a letter written against the number is its suffix (parse-address folds it into the street).
  const [, numberSuffix, afterNumber] = new RegExp(`^${parsed!.number}([a-z]?)\\s*(.*)$`).exec(normalise(text)) ?? [];
  let rest = afterNumber ?? normalise(text);
  let unit: string | undefined;
  if (parsed!.sec_unit_num) {
    unit = normalise(parsed!.sec_unit_num);
    const type = normalise(parsed!.sec_unit_type ?? "");
    const at = type ? rest.lastIndexOf(` ${type} `) : -1;
    rest = at >= 0 ? rest.slice(0, at) : rest.replace(new RegExp(`\\s+${unit}$`), "");
  }
  return { number, numberSuffix: numberSuffix || undefined, unit, street: rest };
}

/**
 * A spoken location from the centre's own GIS data (docs/geocoding.md, "The centre's GIS data"):
 * the address point of the number on the street; else the number placed along the centreline
 * whose range holds it; for "X and Y", the crossing of the two streets; else the street itself.
 * Null when the text names no street of the data, or a place it does not cover.
 */
export function geocodeWithCentreIndex(index: CentreIndex, text: string, options: { requireCommunity?: boolean } = {}): GeocodeResult | null {
  const [first = "", ...rest] = text.split(/[,;\n]+/).map((part) => part.trim()).filter(Boolean);
  const named = contextOf(index, rest);
  if (!named) return null;
  const context: Context = { ...named, requireCommunity: options.requireCommunity };
  const streetPart = first.replace(LEADING_WORDS, "");
  const crossing = /^\d+\s/.test(streetPart) ? null : INTERSECTION.exec(streetPart);
  if (crossing) {
    const tail = trailingCommunity(index, normalise(crossing[2]).split(" "));
    return intersection(index, crossing[1], tail.words.join(" "), { ...context, community: context.community ?? tail.community });
  }
  const parts = addressParts(streetPart);
  const tail = trailingCommunity(index, parts.street.split(" ").filter(Boolean));
  const said = spokenStreet(tail.words.join(" "));
  const found = candidates(index, said, { ...context, community: context.community ?? tail.community });
  if (parts.number === undefined) return streetOnly(index, found);
  const unit = parts.unit ?? context.unit;
  for (const { id, street } of found) {
    const label = `${parts.number}${parts.numberSuffix?.toUpperCase() ?? ""} ${street.label}${unit ? ` (unit ${unit.toUpperCase()})` : ""}`;
    const point = index.addressPoint(id, parts.number, unit, parts.numberSuffix);
    if (point) return located(point, "address_point", label);
    const along = index.interpolate(id, parts.number);
    if (along) return located(along, "interpolated", label);
  }
  return streetOnly(index, found);
}
