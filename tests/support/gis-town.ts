import { fromLocal, type LonLat, pointAlong } from "@/lib/geocoding/centre/geometry";
import { editDistance } from "@/lib/geocoding/centre/edit-distance";
import { ordinal } from "@/lib/geocoding/centre/usps";
import type { Precision } from "@/lib/geocoding/types";

/**
 * A synthetic county of grid towns with NENA NG9-1-1 GIS data (tests/fixtures/gis, bench/gis-geocode.ts).
 * Each town is a grid of streets 150 m apart: east-west streets named from a list, split at the
 * middle column into W and E parts ("W Oak Ave", "E Oak Ave"); north-south streets numbered and
 * split at the middle row ("N 3rd St", "S 3rd St"). Numbers grow away from the middle, 100 a
 * block, odd on the left of a centreline as digitised, even on the right. Houses stand 12 m or
 * so off the centreline, not exactly where interpolation would put them; some streets have
 * centrelines only.
 */
export interface TownOptions {
  seed: number;
  towns: number;
  /** Streets each way per town. */
  grid: number;
  /** Address points per block side (fewer when the block is a centreline-only street's). */
  pointsPerSide: number;
  /** Every n-th east-west street has no address points (interpolation only). */
  centrelineOnlyEvery: number;
  /** Address points written at most (the rest of the houses are left for interpolation). */
  maxPoints?: number;
  /**
   * The forms real data holds (tests/fixtures/gis, docs/geocoding.md "Test data"): suffixes from
   * all of USPS Publication 28, numbered roads before their name (`St_PreTyp` "US Highway"...),
   * a town of quadrants after the name ("Oak Ave NW"), a town of hyphenated house numbers
   * ("94-525") and one of grid numbers ("N103W525"), houses at "525 1/2", a ZIP with a leading 0.
   */
  variety?: boolean;
}

const TOWN_NAMES = ["Springfield", "Shelbyville", "Ogdenville", "North Haverbrook", "Capital City", "Brockway", "Cypress Creek", "Waverly Hills", "Mount Splashmore", "Little Pwagmattasquarmsettport"];
const STREET_NAMES = [
  "Oak", "Maple", "Pine", "Cedar", "Elm", "Walnut", "Chestnut", "Willow", "Birch", "Aspen", "Magnolia", "Poplar", "Spruce",
  "Sycamore", "Hickory", "Cypress", "Juniper", "Laurel", "Alder", "Hawthorn", "Lincoln", "Washington", "Jefferson", "Madison",
  "Monroe", "Jackson", "Adams", "Franklin", "Hamilton", "Harrison", "Garfield", "Grant", "Sherman", "Clinton", "Kennedy",
  "Roosevelt", "Wilson", "Lafayette", "Marshall", "Prospect", "Highland", "Lakeview", "Ridgeway", "Fairview", "Sunset",
  "Meadow", "Orchard", "Riverside", "Hillcrest", "Parkside", "Church", "Mill Creek", "Spring", "Valley", "Forest", "Ocean",
];
const SECOND_WORDS = ["Hollow", "Ridge", "Crest", "Glen", "Brook", "Bend", "Field", "Haven", "Point", "Grove", "Heights", "Gate"];
const TYPES = ["Ave", "St", "Rd", "Dr", "Ln", "Blvd", "Way", "Ct", "Pl", "Ter"];
/** Publication 28 suffixes beyond the common ones, as NENA data writes them (abbreviated or in full), and as they are said. */
const MORE_TYPES: [stored: string, said: string][] = [
  ["Park", "Park"], ["Pike", "Pike"], ["Mall", "Mall"], ["Ctr", "Center"], ["Mdw", "Meadow"], ["Knl", "Knoll"], ["Cyn", "Canyon"],
  ["Hts", "Heights"], ["Xing", "Crossing"], ["Trce", "Trace"], ["Pkwy", "Parkway"], ["Cir", "Circle"], ["Holw", "Hollow"],
  ["Sq", "Square"], ["Loop", "Loop"], ["Run", "Run"], ["Row", "Row"], ["Path", "Path"], ["Walk", "Walk"], ["Grv", "Grove"],
  ["Crk", "Creek"], ["Vly", "Valley"], ["Rdg", "Ridge"], ["Bnd", "Bend"], ["Cv", "Cove"], ["Gln", "Glen"], ["Hbr", "Harbor"],
  ["Lndg", "Landing"], ["Mnr", "Manor"], ["Plz", "Plaza"], ["Spur", "Spur"], ["Sta", "Station"], ["Tpke", "Turnpike"],
  ["Vw", "View"], ["Vis", "Vista"], ["Expy", "Expressway"], ["Cswy", "Causeway"], ["Ests", "Estates"], ["Frk", "Fork"],
  ["Gdns", "Gardens"], ["Aly", "Alley"], ["Byp", "Bypass"], ["Cres", "Crescent"], ["Jct", "Junction"], ["Orch", "Orchard"],
  ["Ramp", "Ramp"], ["Shrs", "Shores"], ["Sqs", "Squares"], ["Trl", "Trail"], ["Ter", "Terrace"], ["Terrace", "Terr"], ["Avenue", "Av"],
];
/** Numbered roads, by town and by which of the town's two road rows: NENA's `St_PreTyp` and `St_Name`. */
const ROADS: [preType: string, name: string][][] = [
  [["US Highway", "19"], ["Route", "66"]],
  [["State Road", "7"], ["Farm to Market Road", "1960"]],
  [["County Road", "60E"], ["Interstate", "95"]],
  [["Highway", "763"], ["State Highway", "27"]],
];
/** The rows of a town that are numbered roads (the last is a centreline-only row, so one road is placed by interpolation). */
const roadRow = (options: TownOptions, row: number) => (row === 0 ? 0 : row === options.grid - 1 ? 1 : undefined);
const QUADRANT_TOWN = 3;
const HYPHEN_TOWN = 1;
const GRID_TOWN = 2;
const BLOCK_M = 150;
const ORIGIN = { lon: -89.65, lat: 39.78 };

export interface Town {
  name: string;
  postCode: string;
  origin: LonLat;
}

export const townOf = (index: number, options?: TownOptions): Town => ({
  name: TOWN_NAMES[index % TOWN_NAMES.length] + (index >= TOWN_NAMES.length ? ` ${Math.floor(index / TOWN_NAMES.length) + 1}` : ""),
  postCode: options?.variety && index === QUADRANT_TOWN ? "06204" : String(62701 + index),
  origin: { lon: ORIGIN.lon + 0.1 * (index % 5), lat: ORIGIN.lat + 0.1 * Math.floor(index / 5) },
});


/** The east-west street of row `row` in town `town`: its name and suffix. */
export function eastWestName(options: TownOptions, town: number, row: number): { name: string; type: string; preType?: string } {
  const n = town * options.grid + row;
  const road = options.variety ? roadRow(options, row) : undefined;
  if (road !== undefined) {
    const [preType, name] = ROADS[town % ROADS.length][road];
    return { name, type: "", preType };
  }
  if (options.variety && row % 2 === 1) return { name: STREET_NAMES[n % STREET_NAMES.length], type: MORE_TYPES[(n >> 1) % MORE_TYPES.length][0] };
  const name = n < STREET_NAMES.length ? STREET_NAMES[n] : `${STREET_NAMES[n % STREET_NAMES.length]} ${SECOND_WORDS[Math.floor(n / STREET_NAMES.length) % SECOND_WORDS.length]}${n >= STREET_NAMES.length * (SECOND_WORDS.length + 1) ? ` ${Math.floor(n / (STREET_NAMES.length * SECOND_WORDS.length))}` : ""}`;
  return { name, type: TYPES[n % TYPES.length] };
}

const metres = (origin: LonLat, east: number, north: number): [number, number] => {
  const { lon, lat } = fromLocal(origin, east, north);
  return [lon, lat];
};

export interface Centreline {
  properties: Record<string, string | number>;
  /** [[lon, lat], ...] from the FromAddr end. */
  coordinates: [number, number][];
  /** Which street and which block, for the address points and spoken addresses. */
  town: number;
  eastWest: boolean;
  row: number;
  fromNumber: number;
  addressPoints: boolean;
  /** East of (or north of) the town's middle line. */
  away: boolean;
  /** Which town's forms of number it has (options.variety). */
  numbering?: "hyphen" | "grid";
}

/** Every block of every street, digitised away from the town's middle (numbers grow that way). */
export function* centrelines(options: TownOptions): Generator<Centreline> {
  const middle = Math.floor(options.grid / 2);
  for (let town = 0; town < options.towns; town++) {
    const { name: community, postCode, origin } = townOf(town, options);
    for (const eastWest of [true, false]) {
      for (let row = 0; row < options.grid; row++) {
        for (let column = 0; column < options.grid - 1; column++) {
          const away = column >= middle; // east (or north) of the middle
          const block = away ? column - middle : middle - column - 1;
          const [from, to] = away ? [column, column + 1] : [column + 1, column];
          const at = (c: number) => (eastWest ? metres(origin, c * BLOCK_M, row * BLOCK_M) : metres(origin, row * BLOCK_M, c * BLOCK_M));
          const direction = eastWest ? (away ? "E" : "W") : away ? "N" : "S";
          const named = eastWest ? eastWestName(options, town, row) : { name: ordinal(row + 1), type: "St", preType: undefined };
          // The quadrant town writes its direction after the name: "Oak Ave NW", "3rd St SE".
          const quadrant = eastWest ? `${row >= middle ? "N" : "S"}${direction}` : `${direction}${row >= middle ? "E" : "W"}`;
          const street: Record<string, string> = {
            ...(options.variety && town === QUADRANT_TOWN ? { St_PosDir: quadrant } : { St_PreDir: direction }),
            ...(named.preType ? { St_PreTyp: named.preType } : {}),
            St_Name: named.name,
            ...(named.type ? { St_PosTyp: named.type } : {}),
          };
          const fromNumber = 100 * (block + 1);
          yield {
            properties: {
              FromAddr_L: fromNumber + 1, ToAddr_L: fromNumber + 99, FromAddr_R: fromNumber, ToAddr_R: fromNumber + 98,
              Parity_L: "O", Parity_R: "E", ...street, PostComm_L: community, PostComm_R: community, PostCode_L: postCode, PostCode_R: postCode,
              State_L: "IL", State_R: "IL",
            },
            coordinates: [at(from), at(to)],
            town, eastWest, row, fromNumber, away,
            addressPoints: !(eastWest && row % options.centrelineOnlyEvery === 1),
            numbering: options.variety ? (town === HYPHEN_TOWN ? "hyphen" : town === GRID_TOWN ? "grid" : undefined) : undefined,
          };
        }
      }
    }
  }
}

export interface House {
  number: number;
  /** NENA `AddNum_Suf`: "1/2" for the house behind "525" at "525 1/2". */
  numberSuffix?: string;
  unit?: string;
  lon: number;
  lat: number;
}

/** Houses along a block: where they really stand (off the line, a little off the range's fraction). */
export function houses(line: Centreline, perSide: number, next: () => number, halves = false): House[] {
  const geometry = Float64Array.from(line.coordinates.flat());
  const found: House[] = [];
  for (const left of [true, false]) {
    for (let k = 0; k < perSide; k++) {
      const slot = Math.floor(((k + 0.5) / perSide) * 49);
      const number = line.fromNumber + 2 * slot + (left ? 1 : 0);
      const fraction = (number - line.fromNumber) / 99 + (next() - 0.5) * 0.06;
      const point = pointAlong(geometry, fraction, (left ? 1 : -1) * (10 + next() * 5));
      const units = next() < 0.1 ? 4 : 0;
      if (units === 0) found.push({ number, ...point });
      // A house behind, a few metres further along: "525 1/2".
      if (halves && units === 0 && next() < 0.06) found.push({ number, numberSuffix: "1/2", ...pointAlong(geometry, fraction + 0.04, (left ? 1 : -1) * 22) });
      for (let unit = 1; unit <= units; unit++) found.push({ number, unit: String(unit), lon: point.lon + unit * 0.00002, lat: point.lat });
    }
  }
  return found;
}

/** NENA `AddNum_Pre` of a house: "94-" in the town of hyphenated numbers, "N103W" (a grid's other axis) in the grid town. */
export const numberPrefix = (line: Centreline): string =>
  line.numbering === "hyphen" ? "94-" : line.numbering === "grid" ? (line.eastWest ? `N${100 + line.row}W` : `W${100 + line.row}N`) : "";

export const addressPointProperties = (line: Centreline, house: House): Record<string, string | number> => ({
  AddNum_Pre: numberPrefix(line),
  Add_Number: house.number,
  AddNum_Suf: house.numberSuffix ?? "",
  St_PreDir: line.properties.St_PreDir ?? "",
  St_PreTyp: line.properties.St_PreTyp ?? "",
  St_Name: line.properties.St_Name,
  St_PosTyp: line.properties.St_PosTyp ?? "",
  St_PosDir: line.properties.St_PosDir ?? "",
  Unit: house.unit ?? "",
  Post_Comm: line.properties.PostComm_L,
  Post_Code: line.properties.PostCode_L,
  State: "IL",
});

export interface SpokenAddress {
  text: string;
  latitude: number;
  longitude: number;
  precision: Precision;
}

const TYPE_WORDS: Record<string, string> = {
  Ave: "Avenue", St: "Street", Rd: "Road", Dr: "Drive", Ln: "Lane", Blvd: "Boulevard", Way: "Way", Ct: "Court", Pl: "Place", Ter: "Terrace",
};
const DIRECTION_WORDS: Record<string, string> = { N: "North", S: "South", E: "East", W: "West" };
const ORDINAL_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"];

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];

/**
 * One or two typing errors in a name (a letter dropped, doubled, swapped or struck next to it),
 * drawn again while two of them overlap into what counts as three (docs/geocoding.md: edit distance).
 */
export function misspell(name: string, next: () => number): string {
  for (;;) {
    const edits = name.length >= 7 && next() < 0.5 ? 2 : 1;
    const word = typed(name, edits, next);
    if (editDistance(word, name, edits) <= edits) return word;
  }
}

function typed(name: string, edits: number, next: () => number): string {
  let word = name;
  for (let edit = 0; edit < edits; edit++) {
    const at = 1 + Math.floor(next() * (word.length - 2));
    const kind = pick(next, ["drop", "double", "swap", "strike"] as const);
    if (kind === "drop") word = word.slice(0, at) + word.slice(at + 1);
    else if (kind === "double") word = word.slice(0, at) + word[at] + word.slice(at);
    else if (kind === "swap") word = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    else word = word.slice(0, at) + (word[at] === "e" ? "r" : "e") + word.slice(at + 1);
  }
  return word;
}

const PRE_TYPE_SAID: Record<string, string[]> = {
  "US Highway": ["US Highway", "US", "U.S. Hwy", "us"], Route: ["Route", "Rte", "route"], "State Road": ["State Road", "SR", "sr"],
  "Farm to Market Road": ["Farm to Market Road", "FM", "fm"], "County Road": ["County Road", "CR", "County Hwy"], Interstate: ["Interstate", "I", "i"],
  Highway: ["Highway", "Hwy", "highway"], "State Highway": ["State Highway", "SH", "State Hwy"],
};
const MORE_TYPE_WORDS = Object.fromEntries(MORE_TYPES);

/**
 * A street as a caller says it: abbreviated or in full, numbered streets sometimes in words,
 * numbered roads as people shorten them ("SR 7", "I-95", "US 19"), a quadrant after the name.
 */
export function spokenStreet(properties: Record<string, string | number>, next: () => number, options: { typo?: boolean; noType?: boolean } = {}): string {
  const direction = String(properties.St_PreDir ?? "");
  const quadrant = String(properties.St_PosDir ?? "");
  const preType = String(properties.St_PreTyp ?? "");
  const type = String(properties.St_PosTyp ?? "");
  let name = String(properties.St_Name);
  const number = /^(\d+)(st|nd|rd|th)$/.exec(name)?.[1];
  if (number && Number(number) <= ORDINAL_WORDS.length && next() < 0.3) name = ORDINAL_WORDS[Number(number) - 1];
  if (options.typo) name = name.split(" ").map((word, i) => (i === 0 ? misspell(word, next) : word)).join(" ");
  const full = next() < 0.4;
  const road = preType ? pick(next, PRE_TYPE_SAID[preType] ?? [preType]) : "";
  const said = road === "I" || road === "i" ? [`${road}-${name}`] : [road, name];
  const typeWord = options.noType ? "" : full ? (TYPE_WORDS[type] ?? MORE_TYPE_WORDS[type] ?? type) : type;
  return [full ? DIRECTION_WORDS[direction] : direction, ...said, typeWord, quadrant].filter(Boolean).join(" ");
}

const townPart = (line: Centreline, next: () => number, always: boolean) =>
  always || next() < 0.6 ? `, ${line.properties.PostComm_L}` : "";

/** "1203 E Oak Ave, Springfield", "I'm at 1203 east oak avenue apt 2"... and where it truly is. */
export function spokenHouse(line: Centreline, house: House, precision: Precision, next: () => number, options: { typo?: boolean } = {}): SpokenAddress {
  const numbered = !line.eastWest;
  let text = `${house.number} ${spokenStreet(line.properties, next, options)}`;
  if (house.unit) text += pick(next, [` apt ${house.unit}`, ` apartment ${house.unit}`, ` unit ${house.unit}`, ` #${house.unit}`]);
  text += townPart(line, next, numbered);
  if (next() < 0.15) text = `I'm at ${text}`;
  if (next() < 0.3) text = text.toLowerCase();
  return { text, latitude: house.lat, longitude: house.lon, precision };
}

/**
 * "E Oak Ave and N 3rd St, Springfield", "corner of ...", "... & ...", "... at ...": the node where
 * block `line` starts (its from end), when that is a crossing of two streets away from the middles.
 */
export function spokenCrossing(line: Centreline, crossing: Centreline, next: () => number): SpokenAddress {
  const [lon, lat] = line.coordinates[0];
  const [first, second] = next() < 0.5 ? [line, crossing] : [crossing, line];
  const a = spokenStreet(first.properties, next);
  const b = spokenStreet(second.properties, next);
  const text = pick(next, [`${a} and ${b}`, `${a} & ${b}`, `corner of ${a} and ${b}`, `${a} at ${b}`]) + townPart(line, next, true);
  return { text, latitude: lat, longitude: lon, precision: "intersection" };
}

/**
 * Blocks whose from end is a crossing of two streets away from the town's middle lines, each with
 * a block of the crossing street: the north-south street of that column, on the node's side.
 */
export function crossingsOf(lines: Centreline[], options: TownOptions): { line: Centreline; crossing: Centreline }[] {
  const middle = Math.floor(options.grid / 2);
  const byStreet = new Map(lines.map((line) => [`${line.town}|${line.eastWest}|${line.row}|${line.away}`, line]));
  return lines.flatMap((line) => {
    const block = line.fromNumber / 100 - 1;
    if (!line.eastWest || block === 0 || line.row === middle) return [];
    const column = line.away ? middle + block : middle - block;
    const crossing = byStreet.get(`${line.town}|false|${column}|${line.row > middle}`);
    return crossing ? [{ line, crossing }] : [];
  });
}

/**
 * A river town beside the county (docs/units.md, "Travel time on the roads"): a grid of streets 150 m
 * apart cut north-south by a river between x = 750 m and x = 1,250 m, crossed by vehicles only on the
 * bridge at the north edge (y = 1,800 m) and by a footbridge (RoadClass Walkway, no vehicles) at
 * y = 0; the streets at x = 450 m (northbound) and x = 300 m (southbound) are a one-way pair. Every
 * street is Local at a posted 30 mph, the bridge Secondary at 30 mph. Positions are metres east and
 * north of RIVER_TOWN.origin.
 */
export const RIVER_TOWN = {
  origin: { lon: -89.65, lat: 39.6 },
  blockMetres: 150,
  westColumns: Array.from({ length: 16 }, (_, c) => -1500 + 150 * c),
  eastColumns: [1250, 1400, 1550, 1700],
  rows: Array.from({ length: 13 }, (_, r) => 150 * r),
  bridgeY: 1800,
  northbound: 450,
  southbound: 300,
  speedMph: 30,
} as const;

/** A point of the river town, `east` and `north` metres from its origin. */
export const riverTownPoint = (east: number, north: number): LonLat => fromLocal(RIVER_TOWN.origin, east, north);

/** The river town's centrelines as GeoJSON features with NENA fields, RoadClass, SpeedLimit and OneWay among them. */
export function riverTownFeatures(): { type: "Feature"; properties: Record<string, string | number>; geometry: { type: "LineString"; coordinates: [number, number][] } }[] {
  const at = (east: number, north: number): [number, number] => metres(RIVER_TOWN.origin, east, north);
  const place = { PostComm_L: "Riverton", PostComm_R: "Riverton", PostCode_L: "62799", PostCode_R: "62799", State_L: "IL", State_R: "IL" };
  const feature = (name: string, type: string, from: [number, number], to: [number, number], road: Record<string, string | number>) => ({
    type: "Feature" as const,
    properties: { St_Name: name, St_PosTyp: type, ...place, RoadClass: "Local", SpeedLimit: RIVER_TOWN.speedMph, ...road },
    geometry: { type: "LineString" as const, coordinates: [from, to] },
  });
  const features = [];
  for (const bank of [RIVER_TOWN.westColumns, RIVER_TOWN.eastColumns]) {
    for (const [r, y] of RIVER_TOWN.rows.entries()) {
      for (let c = 1; c < bank.length; c++) features.push(feature(STREET_NAMES[r], "Ave", at(bank[c - 1], y), at(bank[c], y), {}));
    }
    for (const x of bank) {
      // Digitised south to north: FT is northbound, TF southbound.
      const oneWay = x === RIVER_TOWN.northbound ? "FT" : x === RIVER_TOWN.southbound ? "TF" : "B";
      for (let r = 1; r < RIVER_TOWN.rows.length; r++) {
        features.push(feature(ordinal(Math.round((x + 1650) / 150)), "St", at(x, RIVER_TOWN.rows[r - 1]), at(x, RIVER_TOWN.rows[r]), { OneWay: oneWay }));
      }
    }
  }
  const westEdge = RIVER_TOWN.westColumns.at(-1)!;
  const eastEdge = RIVER_TOWN.eastColumns[0];
  features.push(feature("River", "Brg", at(westEdge, RIVER_TOWN.bridgeY), at(eastEdge, RIVER_TOWN.bridgeY), { RoadClass: "Secondary" }));
  features.push(feature("Mill", "Walk", at(westEdge, 0), at(eastEdge, 0), { RoadClass: "Walkway", SpeedLimit: "" }));
  return features;
}
