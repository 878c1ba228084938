import { lookupTable } from "../lookup-table";
/**
 * Location text as words: lower case, accents and dots dropped ("L.A." -> "la", "St." -> "st"),
 * other punctuation as spaces. Gazetteer names go through the same function, so both sides agree.
 */
export function normalise(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[.'’]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

export const STATE_NAMES: Record<string, string> = lookupTable({
  alabama: "AL", alaska: "AK", arizona: "AZ", arkansas: "AR", california: "CA", colorado: "CO",
  connecticut: "CT", delaware: "DE", "district of columbia": "DC", florida: "FL", georgia: "GA",
  hawaii: "HI", idaho: "ID", illinois: "IL", indiana: "IN", iowa: "IA", kansas: "KS", kentucky: "KY",
  louisiana: "LA", maine: "ME", maryland: "MD", massachusetts: "MA", michigan: "MI", minnesota: "MN",
  mississippi: "MS", missouri: "MO", montana: "MT", nebraska: "NE", nevada: "NV", "new hampshire": "NH",
  "new jersey": "NJ", "new mexico": "NM", "new york": "NY", "north carolina": "NC", "north dakota": "ND",
  ohio: "OH", oklahoma: "OK", oregon: "OR", pennsylvania: "PA", "rhode island": "RI",
  "south carolina": "SC", "south dakota": "SD", tennessee: "TN", texas: "TX", utah: "UT", vermont: "VT",
  virginia: "VA", washington: "WA", "west virginia": "WV", wisconsin: "WI", wyoming: "WY",
  "puerto rico": "PR",
});
const STATE_CODES = new Set(Object.values(STATE_NAMES));

/** One comma-separated part of the location text, its words and what its tail says. */
export interface Segment {
  words: string[];
  /** The words without a trailing state and ZIP and without leading "in", "near"...: the place itself. */
  core: string;
  zip?: string;
  state?: string;
}

const FILLER = new Set(["in", "near", "at", "around", "by", "off", "of", "outside", "close", "to"]);

function trailingState(words: string[], original: string): { state?: string; length: number } {
  for (const length of [3, 2, 1]) {
    if (words.length < length) continue;
    const tail = words.slice(-length).join(" ");
    if (STATE_NAMES[tail]) return { state: STATE_NAMES[tail], length };
  }
  const last = words.at(-1) ?? "";
  // Two-letter codes only when written in capitals ("CA"), so "in", "or", "me" stay words.
  if (last.length === 2 && STATE_CODES.has(last.toUpperCase()) && new RegExp(`\\b${last.toUpperCase()}\\b`).test(original)) {
    return { state: last.toUpperCase(), length: 1 };
  }
  return { length: 0 };
}

export function segmentsOf(text: string): Segment[] {
  return text
    .split(/[,;\n]+/)
    .map((part) => {
      let words = normalise(part).split(" ").filter(Boolean);
      let zip: string | undefined;
      // "94109" or "94109-1234" at the end of a part is a ZIP; at the start it is a house number.
      if (words.length >= 2 && /^\d{4}$/.test(words.at(-1)!) && /^\d{5}$/.test(words.at(-2)!)) words = words.slice(0, -1);
      if (/^\d{5}$/.test(words.at(-1) ?? "")) {
        zip = words.at(-1);
        words = words.slice(0, -1);
      }
      const { state, length } = trailingState(words, part);
      const place = words.slice(0, words.length - length);
      while (place.length > 1 && FILLER.has(place[0])) place.shift();
      return { words: normalise(part).split(" ").filter(Boolean), core: place.join(" "), zip, state };
    })
    .filter((segment) => segment.words.length > 0);
}

/** Every run of 1..maxWords consecutive words of a segment, longest first. */
export function phrasesOf(words: string[], maxWords = 5): string[] {
  const phrases: string[] = [];
  for (let length = Math.min(maxWords, words.length); length >= 1; length--) {
    for (let start = 0; start + length <= words.length; start++) phrases.push(words.slice(start, start + length).join(" "));
  }
  return phrases;
}
