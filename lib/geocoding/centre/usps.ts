import { normalise } from "../text";
import { editDistance } from "./edit-distance";

/**
 * USPS Publication 28 (appendix B and C2): directionals and the common street suffixes, each
 * spelling to its standard abbreviation. One table for the import (NENA fields spelled either way)
 * and for what callers say, so both sides meet on the same words.
 */
const DIRECTIONALS: Record<string, string> = {
  north: "n", n: "n", south: "s", s: "s", east: "e", e: "e", west: "w", w: "w",
  northeast: "ne", ne: "ne", northwest: "nw", nw: "nw", southeast: "se", se: "se", southwest: "sw", sw: "sw",
};

const SUFFIXES: Record<string, string[]> = {
  aly: ["alley", "ally", "allee"],
  ave: ["avenue", "av", "aven", "avenu", "avn", "avnue"],
  blvd: ["boulevard", "boul", "boulv"],
  cir: ["circle", "circ", "circl", "crcl", "crcle"],
  ct: ["court", "crt"],
  cv: ["cove"],
  dr: ["drive", "driv", "drv"],
  expy: ["expressway", "expw", "expr", "express", "exp"],
  fwy: ["freeway", "frway", "frwy"],
  hwy: ["highway", "highwy", "hiway", "hiwy", "hway"],
  holw: ["hollow", "hllw", "hollows"],
  ln: ["lane"],
  loop: ["loops"],
  pkwy: ["parkway", "parkwy", "pkway", "pky"],
  pl: ["place"],
  plz: ["plaza", "plza"],
  pt: ["point"],
  rd: ["road"],
  row: [],
  run: [],
  sq: ["square", "sqr", "sqre", "squ"],
  st: ["street", "strt", "str"],
  ter: ["terrace", "terr"],
  trl: ["trail", "trails", "trls"],
  way: ["wy"],
  xing: ["crossing", "crssng"],
};
const SUFFIX_OF = new Map(Object.entries(SUFFIXES).flatMap(([abbreviation, spellings]) => [abbreviation, ...spellings].map((spelling) => [spelling, abbreviation])));

/** Spoken ordinals of numbered streets ("third street" is 3rd St). */
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
  "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"];
const ORDINAL_OF = new Map(ORDINALS.map((word, index) => [word, ordinal(index + 1)]));

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][n % 10];
  return `${n}${suffix}`;
}

export const directional = (word: string): string | undefined => DIRECTIONALS[word];
export const streetSuffix = (word: string): string | undefined => SUFFIX_OF.get(word);

/** A spoken suffix with one typing error ("drve", "stret"), for words of four letters or more. */
function misspeltSuffix(word: string): string | undefined {
  if (word.length < 4) return undefined;
  for (const [spelling, abbreviation] of SUFFIX_OF) {
    if (spelling.length >= 4 && editDistance(word, spelling, 1) <= 1) return abbreviation;
  }
  return undefined;
}

/** A street name's own words ("Third", "Martin Luther King Jr"), normalised: the key streets are matched on. */
export function streetNameKey(name: string): string {
  return normalise(name)
    .split(" ")
    .map((word) => ORDINAL_OF.get(word) ?? word)
    .join(" ");
}

/** A street as NENA splits it, each part in its Publication 28 form; empty parts are "". */
export interface StreetName {
  preDir: string;
  preType: string;
  name: string;
  postType: string;
  postDir: string;
}

/** The NENA street name fields in their standard form (import side). */
export function standardStreet(fields: { preDir?: string | null; preType?: string | null; name: string; postType?: string | null; postDir?: string | null }): StreetName {
  const word = (value: string | null | undefined) => normalise(value ?? "");
  return {
    preDir: directional(word(fields.preDir)) ?? word(fields.preDir),
    preType: streetSuffix(word(fields.preType)) ?? word(fields.preType),
    name: streetNameKey(fields.name),
    postType: streetSuffix(word(fields.postType)) ?? word(fields.postType),
    postDir: directional(word(fields.postDir)) ?? word(fields.postDir),
  };
}

/**
 * A spoken street ("north main street", "Main St N", "ocean blvd") split into NENA's parts: a
 * leading and a trailing directional, a trailing suffix, the rest the name. A word that is both
 * ("Avenue C", "North Street") stays in the name when nothing else would be left.
 */
export function spokenStreet(text: string): StreetName {
  const words = streetNameKey(text).split(" ").filter(Boolean);
  const street: StreetName = { preDir: "", preType: "", name: "", postType: "", postDir: "" };
  if (words.length > 1 && directional(words.at(-1)!)) street.postDir = directional(words.pop()!)!;
  const suffix = words.length > 1 ? (streetSuffix(words.at(-1)!) ?? misspeltSuffix(words.at(-1)!)) : undefined;
  if (suffix) {
    street.postType = suffix;
    words.pop();
  }
  if (words.length > 1 && directional(words[0])) street.preDir = directional(words.shift()!)!;
  street.name = words.join(" ");
  return street;
}

/** "N Main St", for labels. */
export function streetLabel(street: StreetName): string {
  const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  return [street.preDir.toUpperCase(), title(street.preType), street.name.split(" ").map(title).join(" "), title(street.postType), street.postDir.toUpperCase()]
    .filter(Boolean)
    .join(" ");
}
