import { normalise } from "../text";
import { editDistance } from "./edit-distance";
import { lookupTable } from "../../lookup-table";

/**
 * USPS Publication 28 (appendix B, C1 and C2): directionals, every street suffix with its
 * spellings, and the secondary unit designators; and the road types NENA writes before a name
 * (`St_PreTyp`: "US Highway", "State Road", "County Road"...). One table for the import (NENA
 * fields spelled either way) and for what callers say, so both sides meet on the same words.
 */
const DIRECTIONALS: Record<string, string> = lookupTable({
  north: "n", n: "n", south: "s", s: "s", east: "e", e: "e", west: "w", w: "w",
  northeast: "ne", ne: "ne", northwest: "nw", nw: "nw", southeast: "se", se: "se", southwest: "sw", sw: "sw",
});

/** Publication 28 appendix C1: each standard suffix abbreviation with the spellings it stands for. */
const SUFFIXES: Record<string, string[]> = {
  aly: ["alley", "allee", "ally"], anx: ["anex", "annex", "annx"], arc: ["arcade"], ave: ["avenue", "av", "aven", "avenu", "avn", "avnue"],
  byu: ["bayou", "bayoo"], bch: ["beach"], bnd: ["bend"], blf: ["bluff", "bluf"], blfs: ["bluffs"], btm: ["bottom", "bot", "bottm"],
  blvd: ["boulevard", "boul", "boulv"], br: ["branch", "brnch"], brg: ["bridge", "brdge"], brk: ["brook"], brks: ["brooks"],
  bg: ["burg"], bgs: ["burgs"], byp: ["bypass", "bypa", "bypas", "byps"], cp: ["camp", "cmp"], cyn: ["canyon", "canyn", "cnyn"],
  cpe: ["cape"], cswy: ["causeway", "causwa"], ctr: ["center", "centre", "cen", "cent", "centr", "cnter", "cntr"], ctrs: ["centers"],
  cir: ["circle", "circ", "circl", "crcl", "crcle"], cirs: ["circles"], clf: ["cliff"], clfs: ["cliffs"], clb: ["club"],
  cmn: ["common"], cmns: ["commons"], cor: ["corner"], cors: ["corners"], crse: ["course"], ct: ["court", "crt"], cts: ["courts"],
  cv: ["cove"], cvs: ["coves"], crk: ["creek"], cres: ["crescent", "crsent", "crsnt"], crst: ["crest"], xing: ["crossing", "crssng"],
  xrd: ["crossroad"], xrds: ["crossroads"], curv: ["curve"], dl: ["dale"], dm: ["dam"], dv: ["divide", "div", "dvd"],
  dr: ["drive", "driv", "drv"], drs: ["drives"], est: ["estate"], ests: ["estates"], expy: ["expressway", "exp", "expr", "express", "expw"],
  ext: ["extension", "extn", "extnsn"], exts: ["extensions"], fall: [], fls: ["falls"], fry: ["ferry", "frry"], fld: ["field"],
  flds: ["fields"], flt: ["flat"], flts: ["flats"], frd: ["ford"], frds: ["fords"], frst: ["forest", "forests"], frg: ["forge", "forg"],
  frgs: ["forges"], frk: ["fork"], frks: ["forks"], ft: ["fort", "frt"], fwy: ["freeway", "freewy", "frway", "frwy"],
  gdn: ["garden", "gardn", "grden", "grdn"], gdns: ["gardens", "grdns"], gtwy: ["gateway", "gatewy", "gatway", "gtway"],
  gln: ["glen"], glns: ["glens"], grn: ["green"], grns: ["greens"], grv: ["grove", "grov"], grvs: ["groves"],
  hbr: ["harbor", "harb", "harbr", "hrbor"], hbrs: ["harbors"], hvn: ["haven"], hts: ["heights", "ht"],
  hwy: ["highway", "highwy", "hiway", "hiwy", "hway"], hl: ["hill"], hls: ["hills"], holw: ["hollow", "hllw", "hollows", "holws"],
  inlt: ["inlet"], is: ["island", "islnd"], iss: ["islands", "islnds"], isle: ["isles"], jct: ["junction", "jction", "jctn", "junctn", "juncton"],
  jcts: ["junctions", "jctns"], ky: ["key"], kys: ["keys"], knl: ["knoll", "knol"], knls: ["knolls"], lk: ["lake"], lks: ["lakes"],
  land: [], lndg: ["landing", "lndng"], ln: ["lane"], lgt: ["light"], lgts: ["lights"], lf: ["loaf"], lck: ["lock"], lcks: ["locks"],
  ldg: ["lodge", "ldge", "lodg"], loop: ["loops"], mall: [], mnr: ["manor"], mnrs: ["manors"], mdw: ["meadow"],
  mdws: ["meadows", "medows"], mews: [], ml: ["mill"], mls: ["mills"], msn: ["mission", "missn", "mssn"], mtwy: ["motorway"],
  mt: ["mount", "mnt"], mtn: ["mountain", "mntain", "mntn", "mountin", "mtin"], mtns: ["mountains", "mntns"], nck: ["neck"],
  orch: ["orchard", "orchrd"], oval: ["ovl"], opas: ["overpass"], park: ["prk", "parks"], pkwy: ["parkway", "parkwy", "pkway", "pky", "parkways", "pkwys"],
  pass: [], psge: ["passage"], path: ["paths"], pike: ["pikes"], pne: ["pine"], pnes: ["pines"], pl: ["place"], pln: ["plain"],
  plns: ["plains"], plz: ["plaza", "plza"], pt: ["point"], pts: ["points"], prt: ["port"], prts: ["ports"], pr: ["prairie", "prr"],
  radl: ["radial", "rad", "radiel"], ramp: [], rnch: ["ranch", "ranches", "rnchs"], rpd: ["rapid"], rpds: ["rapids"], rst: ["rest"],
  rdg: ["ridge", "rdge"], rdgs: ["ridges"], riv: ["river", "rvr", "rivr"], rd: ["road"], rds: ["roads"], rte: ["route"], row: [],
  rue: [], run: [], shl: ["shoal"], shls: ["shoals"], shr: ["shore", "shoar"], shrs: ["shores", "shoars"], skwy: ["skyway"],
  spg: ["spring", "spng", "sprng"], spgs: ["springs", "spngs", "sprngs"], spur: ["spurs"], sq: ["square", "sqr", "sqre", "squ"],
  sqs: ["squares", "sqrs"], sta: ["station", "statn", "stn"], stra: ["stravenue", "strav", "straven", "stravn", "strvn", "strvnue"],
  strm: ["stream", "streme"], st: ["street", "strt", "str"], sts: ["streets"], smt: ["summit", "sumit", "sumitt"],
  ter: ["terrace", "terr"], trwy: ["throughway"], trce: ["trace", "traces"], trak: ["track", "tracks", "trk", "trks"], trfy: ["trafficway"],
  trl: ["trail", "trails", "trls"], trlr: ["trailer", "trlrs"], tunl: ["tunnel", "tunel", "tunls", "tunnels", "tunnl"],
  tpke: ["turnpike", "trnpk", "turnpk"], upas: ["underpass"], un: ["union"], uns: ["unions"], vly: ["valley", "vally", "vlly"],
  vlys: ["valleys"], via: ["viaduct", "vdct", "viadct"], vw: ["view"], vws: ["views"], vlg: ["village", "vill", "villag", "villg", "villiage"],
  vlgs: ["villages"], vl: ["ville"], vis: ["vista", "vist", "vst", "vsta"], walk: ["walks"], wall: [], way: ["wy"], ways: [], wl: ["well"], wls: ["wells"],
};
const SUFFIX_OF = new Map(Object.entries(SUFFIXES).flatMap(([abbreviation, spellings]) => [abbreviation, ...spellings].map((spelling) => [spelling, abbreviation])));

/**
 * Road types written before the name (NENA `St_PreTyp`), each family under one key: "US 19",
 * "U.S. Highway 19" and "US Route 19" are one road; "SR 7", "State Road 7" and "State Highway 7"
 * another. "Highway" and "Route" alone may be any numbered road's.
 */
const PRE_TYPES: Record<string, string[]> = {
  "us hwy": ["us highway", "us hwy", "us route", "us rte", "us rt", "us", "u s", "u s highway", "u s hwy", "united states highway", "us hiway", "ush"],
  "state hwy": ["state highway", "state hwy", "state road", "state rd", "state route", "state rte", "st rd", "st hwy", "st rte", "sr", "sh", "state"],
  "county rd": ["county road", "county rd", "county highway", "county hwy", "county route", "county rte", "co rd", "co road", "co hwy", "cty rd", "cty hwy", "cr", "ch"],
  interstate: ["interstate", "interstate highway", "i", "ih"],
  fm: ["farm to market road", "farm to market", "farm road", "fm", "fm road"],
  rm: ["ranch to market road", "ranch to market", "ranch road", "rm", "rr"],
  hwy: ["highway", "hwy", "highwy", "hiway", "hiwy", "hway"],
  rte: ["route", "rte", "rt"],
};
const PRE_TYPE_OF = new Map(Object.entries(PRE_TYPES).flatMap(([key, spellings]) => spellings.map((spelling) => [spelling, key])));
const ROAD_NUMBER_TYPES = new Set(Object.keys(PRE_TYPES));
/** "Highway" or "Route" alone: the caller did not say whose. */
const ANY_ROAD_NUMBER = new Set(["hwy", "rte"]);
const MAX_PRE_TYPE_WORDS = 4;

/**
 * Publication 28 appendix C2: secondary unit designators ("Ste 307V", "Apt 4", "7th Flr", "#12"),
 * and the few written without a number ("Rear", "Lobby") that still say which door.
 */
const UNIT_DESIGNATORS = new Set([
  "apt", "apartment", "bldg", "building", "dept", "department", "fl", "flr", "floor", "hngr", "hangar", "lot", "ofc", "office",
  "ph", "penthouse", "pier", "rm", "room", "slip", "spc", "space", "ste", "suite", "stop", "trlr", "trailer", "unit", "#",
]);

/** Spoken ordinals of numbered streets ("third street" is 3rd St). */
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
  "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"];
const ORDINAL_OF = new Map(ORDINALS.map((word, index) => [word, ordinal(index + 1)]));

/** The numbered streets a spoken ordinal typed so far may become ("eigh" -> 8th, 18th). */
export const ordinalsStartingWith = (prefix: string): string[] =>
  prefix.length < 2 ? [] : ORDINALS.flatMap((word, index) => (word.startsWith(prefix) ? [ordinal(index + 1)] : []));

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][n % 10];
  return `${n}${suffix}`;
}

export const directional = (word: string): string | undefined => DIRECTIONALS[word];
export const streetSuffix = (word: string): string | undefined => SUFFIX_OF.get(word);
export const isUnitDesignator = (word: string): boolean => UNIT_DESIGNATORS.has(word);
/** Whether the words end with a numbered road's type ("... US Hwy", "... SR"): the number after them names the road. */
export const endsWithRoadType = (words: string[]): boolean =>
  words.some((_, start) => PRE_TYPE_OF.has(words.slice(start).join(" ")));

/** Suffix spellings of four letters or more by their first letter (a typing error rarely strikes the first). */
const SUFFIXES_BY_INITIAL = new Map<string, [string, string][]>();
for (const [spelling, abbreviation] of SUFFIX_OF) {
  if (spelling.length < 4) continue;
  const bucket = SUFFIXES_BY_INITIAL.get(spelling[0]) ?? [];
  bucket.push([spelling, abbreviation]);
  SUFFIXES_BY_INITIAL.set(spelling[0], bucket);
}

/** A spoken suffix with one typing error after its first letter ("drve", "stret"), for words of four letters or more. */
function misspeltSuffix(word: string): string | undefined {
  if (word.length < 4) return undefined;
  for (const [spelling, abbreviation] of SUFFIXES_BY_INITIAL.get(word[0]) ?? []) {
    if (Math.abs(spelling.length - word.length) <= 1 && editDistance(word, spelling, 1) <= 1) return abbreviation;
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

/** A road type before the name in its family's key ("State Road" -> "state hwy", "Avenue" -> "ave"). */
function preTypeKey(words: string): string {
  return PRE_TYPE_OF.get(words) ?? SUFFIX_OF.get(words) ?? words;
}

/**
 * How far a said road type before the name is from a street's (0 the same; 1 left out, or
 * "Highway 19" for "US Highway 19"; 3 said but the street has none; 6 another family).
 */
export function preTypeDistance(said: string, street: string): number {
  if (said === street) return 0;
  if (!said) return 1;
  if (!street) return 3;
  if (ROAD_NUMBER_TYPES.has(said) && ROAD_NUMBER_TYPES.has(street) && (ANY_ROAD_NUMBER.has(said) || ANY_ROAD_NUMBER.has(street))) return 1;
  return 6;
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
    preType: preTypeKey(word(fields.preType)),
    name: streetNameKey(fields.name),
    postType: streetSuffix(word(fields.postType)) ?? word(fields.postType),
    postDir: directional(word(fields.postDir)) ?? word(fields.postDir),
  };
}

/** A numbered road's or lettered avenue's name: "19", "60e", "c". */
const ROAD_NUMBER = /^(?:\d+[a-z]?|[a-z])$/;

/** "US Highway 19", "SR 7", "County Road 60E", "Avenue C": the road type before a number or letter. */
function leadingPreType(words: string[]): { preType: string; length: number } | undefined {
  for (let length = Math.min(MAX_PRE_TYPE_WORDS, words.length - 1); length >= 1; length--) {
    const phrase = words.slice(0, length).join(" ");
    const key = PRE_TYPE_OF.get(phrase) ?? (length === 1 ? SUFFIX_OF.get(phrase) : undefined);
    if (key && ROAD_NUMBER.test(words[length])) return { preType: key, length };
  }
  return undefined;
}

/**
 * A spoken street ("north main street", "Main St N", "ocean blvd", "US Hwy 19 N") split into
 * NENA's parts: a leading and a trailing directional, a road type before a number ("State Road
 * 7"), else a trailing suffix, the rest the name. A word that is both ("Avenue C", "North
 * Street") stays in the name when nothing else would be left.
 */
export function spokenStreet(text: string): StreetName {
  return readStreet(streetNameKey(text).split(" ").filter(Boolean), true);
}

function readStreet(source: string[], withSuffix: boolean): StreetName {
  const words = [...source];
  const street: StreetName = { preDir: "", preType: "", name: "", postType: "", postDir: "" };
  if (words.length > 1 && directional(words.at(-1)!)) street.postDir = directional(words.pop()!)!;
  if (words.length > 2 && directional(words[0]) && leadingPreType(words.slice(1))) street.preDir = directional(words.shift()!)!;
  const road = leadingPreType(words);
  if (road && words.length - road.length === 1) {
    street.preType = road.preType;
    street.name = words.slice(road.length).join(" ");
    return street;
  }
  const suffix = withSuffix && words.length > 1 ? (streetSuffix(words.at(-1)!) ?? misspeltSuffix(words.at(-1)!)) : undefined;
  if (suffix) {
    street.postType = suffix;
    words.pop();
  }
  if (words.length > 1 && directional(words[0])) street.preDir = directional(words.shift()!)!;
  street.name = words.join(" ");
  return street;
}

/**
 * The ways a caller's street words may split into NENA's parts, the likeliest first: as
 * `spokenStreet` reads them, then with the last word kept in the name ("Maple Hollow" with its
 * type left out is not "Maple" of type Hollow), then every word the name.
 */
export function streetReadings(text: string): StreetName[] {
  const words = streetNameKey(text).split(" ").filter(Boolean);
  const readings = [readStreet(words, true), readStreet(words, false), { preDir: "", preType: "", name: words.join(" "), postType: "", postDir: "" }];
  const seen = new Set<string>();
  return readings.filter((reading) => {
    const key = `${reading.preDir}|${reading.preType}|${reading.name}|${reading.postType}|${reading.postDir}`;
    if (!reading.name || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A unit as the points and callers write it, without its designator: "Ste 307V" and "#307v" are "307v", "7th Flr" is "7". */
export function unitKey(text: string): string {
  return normalise(text.replace(/#/g, " "))
    .split(" ")
    .filter((word) => word && !UNIT_DESIGNATORS.has(word))
    .map((word) => /^\d+(?:st|nd|rd|th)$/.test(word) ? word.replace(/\D+$/, "") : word)
    .join(" ");
}

const PRE_TYPE_LABELS: Record<string, string> = lookupTable({ "us hwy": "US Hwy", "state hwy": "State Hwy", "county rd": "County Rd", interstate: "Interstate", fm: "FM", rm: "RM" });

/** "N Main St", "US Hwy 19", for labels. */
export function streetLabel(street: StreetName): string {
  const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  return [street.preDir.toUpperCase(), PRE_TYPE_LABELS[street.preType] ?? title(street.preType), street.name.split(" ").map(title).join(" "), title(street.postType), street.postDir.toUpperCase()]
    .filter(Boolean)
    .join(" ");
}
