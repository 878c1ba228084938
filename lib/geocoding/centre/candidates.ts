import { normalise } from "../text";
import type { GeocodeResult, Precision } from "../types";
import type { CentreIndex, Street } from "./centre-index";
import { type Candidate, candidates, houseOn, housesNamed, located, streetMiddleOf } from "./geocode";
import { civicOfMatch } from "./civic-address";
import { directional, ordinalsStartingWith, spokenStreet, streetNameKey } from "./usps";

/**
 * The centre's GIS candidates for a location as a person types it (docs/geocoding.md, "Candidates
 * while typing"): address points, numbers along a centreline, crossings and streets, best first.
 * Every lookup goes through the index's maps and sorted names (a binary search for a name typed so
 * far), then the few streets found: never through the address points, so a keystroke costs the
 * same at 1,000,000 points as at 1,000.
 */

/** The text read at most: a location is far shorter. */
export const TYPED_TEXT_LIMIT = 200;
/** Words of a street part read at most. */
const MAX_STREET_WORDS = 8;
/** Street names a name typed so far may be the start of, looked at most. */
const PREFIX_NAMES = 12;
/** Streets of each part of a crossing paired at most (only those of one community are). */
const CROSSING_STREETS = 24;
/** Words at the end of a street part read as its community ("372 N 8th St Springfield"), at most. */
const TRAILING_PLACE_WORDS = 3;

const CROSSING = /^(.+?)\s+(?:and|&|at|@|\/)\s+(.+)$/i;
const LEADING_WORDS = /^(?:(?:i am|i'?m|we are|we'?re|it'?s|this is)\s+)?(?:at|on|near|by|corner of)\s+/i;
const HOUSE_NUMBER = /^(\d{1,7})(?:\s+(.*))?$/s;

/** A location as typed so far, read into what the index looks up. */
export interface TypedLocation {
  /** The house number, when the text starts with one. */
  number?: number;
  /** The street's words (normalised), or a crossing's two streets'; empty when no street is typed yet. */
  streets: string[];
  /** Words after the first comma (normalised): a community, perhaps typed so far. */
  place?: string;
  /** The last word may be unfinished: the text does not end with a space or a comma. */
  open: boolean;
}

/** Reads typed text (any text: bounded, never throws) into a number, one or two streets and a place. */
export function readTypedLocation(text: string): TypedLocation {
  const bounded = text.slice(0, TYPED_TEXT_LIMIT);
  const open = !/[\s,;]$/.test(bounded);
  const [first = "", ...rest] = bounded.split(/[,;\n]+/);
  const place = normalise(rest.join(" ")) || undefined;
  const words = (part: string) => normalise(part).split(" ").filter(Boolean).slice(0, MAX_STREET_WORDS).join(" ");
  const streetPart = first.trim().replace(LEADING_WORDS, "");
  const house = HOUSE_NUMBER.exec(streetPart);
  if (house) {
    const street = words(house[2] ?? "");
    return { number: Number(house[1]), streets: street ? [street] : [], place, open };
  }
  const crossing = CROSSING.exec(streetPart);
  const streets = (crossing ? [crossing[1], crossing[2]] : [streetPart]).map(words).filter(Boolean);
  return { streets, place, open };
}

/** How the candidates are ordered: the most exact kind first. */
const PRECISION_RANK: Partial<Record<Precision, number>> = { address_point: 0, interpolated: 1, intersection: 2, street: 3 };
/** A street found by a name typed so far ranks behind one whose whole name was typed. */
const PREFIX_PENALTY = 5;

/** The communities the place words may name: the one they name, or while they are typed, those they start. */
function communitiesOf(index: CentreIndex, place: string | undefined, open: boolean): Set<string> | undefined {
  if (!place) return undefined;
  const named = new Set<string>();
  for (const community of index.communities) {
    if (place === community || place.startsWith(`${community} `) || (open && community.startsWith(place))) named.add(community);
  }
  // Words the data has no community for (a state, a ZIP, a town elsewhere): no filter, the streets decide.
  return named.size > 0 ? named : undefined;
}

/**
 * The readings of a street part: its words, and without a comma, its last words as a community
 * the data holds (or, typed so far, starts) with the words before them the street.
 */
function readingsOf(index: CentreIndex, words: string, open: boolean, communities: Set<string> | undefined): { words: string; open: boolean; communities: Set<string> | undefined }[] {
  const readings = [{ words, open, communities }];
  if (communities) return readings;
  const parts = words.split(" ");
  for (let length = Math.min(TRAILING_PLACE_WORDS, parts.length - 1); length >= 1; length--) {
    const tail = communitiesOf(index, parts.slice(-length).join(" "), open);
    if (tail) readings.push({ words: parts.slice(0, -length).join(" "), open: false, communities: tail });
  }
  return readings;
}

/**
 * The streets typed words may name, best first: the whole words as a lookup reads them (typing
 * errors allowed), and while the last word is being typed, the names it starts ("oa" Oak, "eigh"
 * 8th and 18th).
 */
function streetsTyped(index: CentreIndex, typed: string, typedOpen: boolean, typedCommunities: Set<string> | undefined): Candidate[] {
  const found = new Map<number, Candidate>();
  for (const { words, open, communities } of readingsOf(index, typed, typedOpen, typedCommunities)) streetsRead(index, words, open, communities, found);
  return [...found.values()].sort((a, b) => a.score - b.score || a.street.label.localeCompare(b.street.label));
}

/** One reading's streets into `found`, each street at its best score. */
function streetsRead(index: CentreIndex, words: string, open: boolean, communities: Set<string> | undefined, found: Map<number, Candidate>): void {
  const inPlace = (street: Street) => !communities || communities.has(street.community);
  const keep = (candidate: Candidate) => {
    if (inPlace(candidate.street) && (found.get(candidate.id)?.score ?? Infinity) > candidate.score) found.set(candidate.id, candidate);
  };
  for (const candidate of candidates(index, words, {})) keep(candidate);
  if (open) {
    const said = spokenStreet(words);
    const parts = streetNameKey(words).split(" ");
    // A leading direction is no part of the name being typed ("north eigh").
    if (parts.length > 1 && directional(parts[0])) parts.shift();
    const last = parts.pop() ?? "";
    const stem = parts.length > 0 ? `${parts.join(" ")} ` : "";
    const names = [...index.streetNamesStartingWith(stem + last, PREFIX_NAMES), ...ordinalsStartingWith(last).map((name) => stem + name)];
    const direction = said.preDir || said.postDir;
    for (const name of names) {
      for (const { street: id } of index.streetsNamedExactly(name)) {
        const street = index.streets[id];
        const disagrees = direction && (street.preDir || street.postDir) && direction !== (street.preDir || street.postDir);
        keep({ id, street, score: PREFIX_PENALTY + (disagrees ? 6 : 0) + name.length - (stem + last).length });
      }
    }
  }
}

interface Ranked {
  result: GeocodeResult;
  score: number;
}

/**
 * At most `limit` candidates for typed text from the centre's GIS index, most exact first (address
 * point, interpolated, crossing, street), then by how well the street fits, then by label; none
 * when the text names no street of the data.
 */
export function centreCandidates(index: CentreIndex, text: string, limit: number): GeocodeResult[] {
  const typed = readTypedLocation(text);
  // The whole text read as the lookup reads an address (units, numbers in words, the community at the end, typing errors).
  const ranked: Ranked[] = housesNamed(index, text.slice(0, TYPED_TEXT_LIMIT));
  if (typed.streets.length === 0) return best(ranked, limit);
  const communities = communitiesOf(index, typed.place, typed.open);
  // Words after a comma are complete: only the last part of the text may be unfinished.
  const streetOpen = typed.open && typed.place === undefined;
  if (typed.streets.length === 2) {
    const firsts = streetsTyped(index, typed.streets[0], false, communities).slice(0, CROSSING_STREETS);
    const seconds = streetsTyped(index, typed.streets[1], streetOpen, communities).slice(0, CROSSING_STREETS);
    for (const a of firsts) {
      for (const b of seconds) {
        if (a.street.community !== b.street.community) continue;
        const point = index.intersection(a.id, b.id);
        if (!point) continue;
        const label = `${a.street.label.split(",")[0]} & ${b.street.label}`;
        ranked.push({ result: located(point, "intersection", civicOfMatch(a.street, a.street.written), label), score: a.score + b.score });
      }
    }
  } else {
    const streets = streetsTyped(index, typed.streets[0], streetOpen, communities);
    const said = typed.number;
    if (said !== undefined) {
      let added = 0;
      for (const street of streets) {
        const result = houseOn(index, street, { number: said });
        if (result) ranked.push({ result, score: street.score });
        if (result && ++added >= limit) break;
      }
    }
    // No street has the number (or none was typed yet): the streets themselves.
    if (ranked.length === 0) {
      for (const street of streets.slice(0, limit)) {
        const result = streetMiddleOf(index, street);
        if (result) ranked.push({ result, score: street.score });
      }
    }
  }
  return best(ranked, limit);
}

/** Each place once, at its best score; most exact first, then best fitting, then by label; at most `limit`. */
function best(ranked: Ranked[], limit: number): GeocodeResult[] {
  const places = new Map<string, Ranked>();
  for (const entry of ranked) {
    const key = `${entry.result.precision}:${entry.result.latitude},${entry.result.longitude}`;
    if ((places.get(key)?.score ?? Infinity) > entry.score) places.set(key, entry);
  }
  return [...places.values()]
    .sort((a, b) =>
      (PRECISION_RANK[a.result.precision] ?? 9) - (PRECISION_RANK[b.result.precision] ?? 9) || a.score - b.score || a.result.label.localeCompare(b.result.label))
    .slice(0, limit)
    .map((entry) => entry.result);
}
