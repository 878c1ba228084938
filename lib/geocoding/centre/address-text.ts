import { normalise, STATE_NAMES } from "../text";
import { endsWithRoadType, isUnitDesignator } from "./usps";
import { lookupTable } from "../../lookup-table";

/**
 * An address as people say and write it, read into what the centre's index matches on
 * (docs/geocoding.md, "Lookup"): the house number in any of its forms, the unit, the ZIP and
 * state at the end, and the words between, commas kept, for the matcher to tell the street from
 * the community with the data's own names.
 */
export interface SaidAddress {
  number: number;
  /** NENA `AddNum_Pre`: "94" of "94-210", "w156n" of "W156N9762". */
  numberPrefix?: string;
  /** NENA `AddNum_Suf`: "b" of "12B", "1 2" of "12 1/2" (normalised). */
  numberSuffix?: string;
  /** The unit's identifier without its designator ("Ste 307V" -> "307v"), several joined by a space. */
  unit?: string;
  /** The words after the number, units taken out, "," where a comma was. */
  words: string[];
  zip?: string;
  state?: string;
}

const MAX_HOUSE_NUMBER = 2_000_000_000;
/** House numbers tried per text at most, the first ones: a long text costs no more than a short one. */
const MAX_NUMBERS = 4;
const COMMA = ",";

/** Lower-case words of the text, commas kept as "," tokens; "12 1/2", "½", "94-210" and ZIP+4 kept whole. */
export function addressTokens(text: string): string[] {
  const prepared = text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/½/g, " 1/2").replace(/¼/g, " 1/4").replace(/¾/g, " 3/4")
    .replace(/(\d)\s*\/\s*(\d)/g, "$1/$2")
    .toLowerCase()
    .replace(/[.'’]/g, "")
    .replace(/&/g, " and ");
  const tokens: string[] = [];
  for (const part of prepared.split(/[,;\n]+/)) {
    if (tokens.length > 0 && tokens.at(-1) !== COMMA) tokens.push(COMMA);
    for (const raw of part.replace(/#/g, " # ").split(/[^a-z0-9/#-]+/)) {
      if (/^\d+\/\d+$/.test(raw) || /^\d+-\d+$/.test(raw) || raw === "#") tokens.push(raw);
      else tokens.push(...raw.split(/[/-]+/).filter(Boolean));
    }
  }
  while (tokens.at(-1) === COMMA) tokens.pop();
  return tokens;
}

const COUNTRIES = [["united", "states", "of", "america"], ["united", "states"], ["usa"], ["us"], ["u", "s", "a"], ["u", "s"]];
const STATE_CODES = new Set(Object.values(STATE_NAMES).map((code) => code.toLowerCase()));

const endsWith = (tokens: string[], tail: string[]) => tokens.length > tail.length && tail.every((word, k) => tokens[tokens.length - tail.length + k] === word);
const trimCommas = (tokens: string[]) => {
  while (tokens.at(-1) === COMMA) tokens.pop();
  return tokens;
};

/**
 * The end of the text read as country, ZIP and state, each optional, in their usual order
 * ("Columbia, MO 65202", "oak park il 60302-1234", "Springfield, Illinois, USA", a ZIP of four
 * digits that lost its leading zero). The state is also offered not taken ("111 W Washington"):
 * the matcher keeps the reading the data agrees with.
 */
function tails(tokens: string[], isStateCode: (code: string) => boolean): { tokens: string[]; zip?: string; state?: string }[] {
  const rest = trimCommas([...tokens]);
  const country = COUNTRIES.find((words) => endsWith(rest, words));
  if (country) {
    rest.splice(rest.length - country.length);
    trimCommas(rest);
  }
  let zip: string | undefined;
  const last = rest.at(-1) ?? "";
  const beforeLast = rest.at(-2) ?? "";
  const zipMatch = /^(\d{5})(?:-?\d{4})?$/.exec(last);
  if (rest.length > 2 && zipMatch) zip = zipMatch[1];
  else if (rest.length > 2 && /^\d{4}$/.test(last) && (beforeLast === COMMA || STATE_CODES.has(beforeLast) || STATE_NAMES[beforeLast])) zip = `0${last}`;
  if (zip) trimCommas((rest.pop(), rest));
  const found: { tokens: string[]; zip?: string; state?: string }[] = [];
  for (const length of [3, 2, 1]) {
    if (rest.length <= length + 1) continue;
    const words = rest.slice(-length);
    const name = words.join(" ");
    const state = STATE_NAMES[name] ?? (length === 1 && STATE_CODES.has(name) && (zip || rest.at(-2) === COMMA || isStateCode(name)) ? name.toUpperCase() : undefined);
    if (!state) continue;
    found.push({ tokens: trimCommas(rest.slice(0, -length)), zip, state });
    // After a comma or before a ZIP it is the state; else it may be the street's ("111 W Washington").
    if (zip || rest.at(-length - 1) === COMMA) return found;
    break;
  }
  found.push({ tokens: rest, zip });
  return found;
}

const SMALL_NUMBERS: Record<string, number> = lookupTable({
  zero: 0, oh: 0, o: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
});
const TENS: Record<string, number> = lookupTable({ twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 });
const ZEROS = new Set(["zero", "oh", "o"]);
const isNumberWord = (word: string) => word in SMALL_NUMBERS || word in TENS || word === "hundred" || word === "thousand" || word === "and";

/** Words a caller says before the address ("I'm at", "the address is", "we are on"). */
const LEAD_WORDS = new Set(["i", "im", "am", "at", "on", "we", "were", "are", "its", "it", "is", "this", "the", "address", "my", "our", "located", "near", "by", "here", "um", "uh", "so", "okay", "ok", "yes", "yeah", "hi", "hello", "please", "send", "help", "to", "come", "live", "lives", "in", "front", "of", "outside"]);

/**
 * A house number said in words, as it is said: in pairs ("twenty-six seventy-seven" 2677, "two
 * twenty-four" 224), with "oh" ("six oh five" 605), or counted ("twenty-two hundred" 2200, "one
 * thousand two hundred five" 1205, "One S. Dearborn" 1). Undefined when the words are not one.
 */
export function numberInWords(words: string[]): number | undefined {
  if (words.length === 0 || ZEROS.has(words[0]) || words[0] === "and" || words.at(-1) === "and") return undefined;
  if (words.includes("hundred") || words.includes("thousand")) {
    let total = 0;
    let current = 0;
    for (const word of words) {
      if (word === "and") continue;
      if (word === "hundred") current = (current || 1) * 100;
      else if (word === "thousand") [total, current] = [total + (current || 1) * 1000, 0];
      else if (ZEROS.has(word)) return undefined;
      else current += SMALL_NUMBERS[word] ?? TENS[word];
    }
    return total + current;
  }
  let digits = "";
  for (let k = 0; k < words.length; k++) {
    const word = words[k];
    if (word === "and") return undefined;
    if (word in TENS) {
      const unit = SMALL_NUMBERS[words[k + 1]];
      if (unit !== undefined && unit >= 1 && unit <= 9 && !ZEROS.has(words[k + 1])) {
        digits += String(TENS[word] + unit);
        k++;
      } else digits += String(TENS[word]);
    } else digits += String(SMALL_NUMBERS[word]);
  }
  return Number(digits);
}

interface HouseNumber {
  /** Where the number's own tokens end (the street's words start). */
  end: number;
  number: number;
  numberPrefix?: string;
  numberSuffix?: string;
}

/** A house number written with digits at token `at`: "12", "12b", "12 1/2", "94-210", "w156n9762". */
function digitNumber(tokens: string[], at: number): HouseNumber | undefined {
  const token = tokens[at];
  const parts = /^(\d+)([a-z]?)$/.exec(token) ?? /^(\d+)-(\d+)$/.exec(token) ?? /^([nsew]\d+[nsew])(\d+)$/.exec(token);
  if (!parts) return undefined;
  const found: HouseNumber = { end: at + 1, number: 0 };
  if (/^\d+-\d+$/.test(token) || /^[nsew]/.test(token)) [found.numberPrefix, found.number] = [parts[1], Number(parts[2])];
  else [found.number, found.numberSuffix] = [Number(parts[1]), parts[2] || undefined];
  if (/^\d+\/\d+$/.test(tokens[at + 1] ?? "")) [found.numberSuffix, found.end] = [normalise(tokens[at + 1]), at + 2];
  return found.number <= MAX_HOUSE_NUMBER ? found : undefined;
}

/** A house number said in words after nothing but "I'm at" and the like. */
function wordNumber(tokens: string[]): { at: number; found: HouseNumber } | undefined {
  let at = 0;
  while (at < tokens.length && LEAD_WORDS.has(tokens[at]) && !isNumberWord(tokens[at])) at++;
  let end = at;
  while (end < tokens.length && isNumberWord(tokens[end])) end++;
  while (end > at && tokens[end - 1] === "and") end--;
  const number = numberInWords(tokens.slice(at, end));
  if (number === undefined || end >= tokens.length || tokens[end] === COMMA || number > MAX_HOUSE_NUMBER) return undefined;
  return { at, found: { end, number } };
}

const isUnitId = (token: string | undefined) => !!token && token !== COMMA && /^[a-z0-9-]+$/.test(token) && (/\d/.test(token) || token.length === 1) && !/^\d{5}$/.test(token);

/**
 * The units among the words after the number ("Ste 307V", "apt 4", "# 12", "7th Flr"), taken
 * out; a designator counts only after a street word or a comma, and only with its identifier.
 */
function withoutUnits(words: string[]): { words: string[]; unit?: string } {
  const kept: string[] = [];
  const units: string[] = [];
  for (let k = 0; k < words.length; k++) {
    const word = words[k];
    const next = words[k + 1];
    if (kept.length > 0 && isUnitDesignator(word) && isUnitId(next)) {
      units.push(next!);
      k++;
    } else if (kept.length > 0 && /^\d+(?:st|nd|rd|th)$/.test(word) && (next === "fl" || next === "flr" || next === "floor")) {
      units.push(word.replace(/\D+$/, ""));
      k++;
    } else kept.push(word);
  }
  while (kept.at(-1) === COMMA) kept.pop();
  return { words: kept.filter((word, k) => word !== COMMA || kept[k - 1] !== COMMA), unit: units.length > 0 ? units.join(" ") : undefined };
}

/**
 * Every way the text reads as an address, the likeliest first: for each reading of its end (with
 * the state taken or not), each house number in it (digits anywhere, a business or person's name
 * before them; words only at the start), the words after it with the units taken out. Empty when
 * the text holds no house number (a crossing, a street alone).
 */
export function saidAddresses(text: string, isStateCode: (code: string) => boolean): SaidAddress[] {
  const readings: SaidAddress[] = [];
  for (const tail of tails(addressTokens(text), isStateCode)) {
    const { tokens } = tail;
    const numbers: HouseNumber[] = [];
    const spoken = wordNumber(tokens);
    for (let at = 0; at < tokens.length && numbers.length < MAX_NUMBERS; at++) {
      if (spoken?.at === at) numbers.push(spoken.found);
      const found = digitNumber(tokens, at);
      // "Hwy 763", "County Road 60E": a road's number, not a house's.
      if (found && found.end < tokens.length && tokens[found.end] !== COMMA && !endsWithRoadType(tokens.slice(Math.max(0, at - 4), at))) numbers.push(found);
    }
    for (const { end, ...number } of numbers) {
      const { words, unit } = withoutUnits(tokens.slice(end));
      if (words.length > 0 && words[0] !== COMMA) readings.push({ ...number, unit, words, zip: tail.zip, state: tail.state });
    }
  }
  return readings;
}
