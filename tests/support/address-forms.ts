import type { Precision } from "@/lib/geocoding/types";
import { type Centreline, type House, numberPrefix, spokenStreet } from "./gis-town";

/**
 * The project's own test set of addresses as people say and write them (issue 53; docs/geocoding.md,
 * "Test data"): each address of the synthetic county in several forms, by what kind of address it is.
 */
export const ADDRESS_FORMS = ["written", "spoken_in", "no_commas", "extra_words", "number_in_words", "unknown_town"] as const;
export type AddressForm = (typeof ADDRESS_FORMS)[number];

export const ADDRESS_CATEGORIES = ["plain", "unit", "road", "suffix", "half", "hyphenated", "grid", "quadrant", "interpolated", "no_type"] as const;
export type AddressCategory = (typeof ADDRESS_CATEGORIES)[number];

/** The parts of an address, for the property test to arrange in other ways. */
export interface AddressParts {
  /** "525", "525 1/2", "94-525", "N103W525". */
  number: string;
  street: string;
  unit?: string;
  community: string;
  zip: string;
}

export interface AddressCase {
  category: AddressCategory;
  parts: AddressParts;
  forms: Partial<Record<AddressForm, string>>;
  latitude: number;
  longitude: number;
  precision: Precision;
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)];

const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
  "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const below100 = (n: number) => (n < 20 ? ONES[n] : `${TENS[Math.floor(n / 10)]}${n % 10 ? `-${ONES[n % 10]}` : ""}`);

/** A house number of one to four digits as a caller says it: "five twenty-five", "six oh five", "five hundred twenty-five", "twenty-six seventy-seven". */
export function numberSaid(n: number, next: () => number): string {
  if (n < 100) return below100(n);
  const [high, low] = [Math.floor(n / 100), n % 100];
  if (low === 0) return `${below100(high)} hundred`;
  const style = next();
  if (n < 1000 && style < 0.3) return `${ONES[high]} hundred ${style < 0.1 ? "and " : ""}${below100(low)}`;
  if (low < 10) return `${below100(high)} oh ${ONES[low]}`;
  return `${below100(high)} ${below100(low)}`;
}

const UNIT_WRITTEN = ["Apt", "Apt.", "Unit", "Ste", "Ste.", "Suite", "#", "Rm", "Fl", "Flr", "Bldg", "Lot", "Spc", "Trlr"];
const UNIT_SPOKEN = ["apartment", "apt", "unit", "suite", "room", "floor"];
const BUSINESSES = ["Acme Hardware", "Dr. Pat Lee", "Riverside Dental Group", "The Blue Door Cafe", "Sam & Sons Plumbing", "Hilltop Family Clinic"];
/** A community the synthetic county does not hold. */
export const UNKNOWN_TOWN = "Lakewood";

const unitWritten = (unit: string, next: () => number) => {
  const designator = pick(next, UNIT_WRITTEN);
  return designator === "#" ? `#${unit}` : designator === "Fl" && next() < 0.5 ? `${unit}${["th", "st", "nd", "rd", "th"][Number(unit)] ?? "th"} Flr` : `${designator} ${unit}`;
};
const unitSpoken = (unit: string, next: () => number) => `${pick(next, UNIT_SPOKEN)} ${unit}`;

const zipWritten = (zip: string, next: () => number) => {
  const style = next();
  if (zip.startsWith("0") && style < 0.4) return zip.slice(1);
  return style < 0.5 ? zip : style < 0.75 ? `${zip}-${String(1000 + Math.floor(next() * 8999))}` : `${zip}${String(1000 + Math.floor(next() * 8999))}`;
};
const stateWritten = (next: () => number) => pick(next, ["IL", "IL", "Illinois", "il"]);
const cased = (text: string, next: () => number) => {
  const style = next();
  return style < 0.2 ? text.toLowerCase() : style < 0.3 ? text.toUpperCase() : text;
};

/** Every form of one address of the county, with where it truly is. */
export function addressCase(line: Centreline, house: House, category: AddressCategory, precision: Precision, next: () => number): AddressCase {
  const prefix = numberPrefix(line);
  const number = `${prefix}${house.number}${house.numberSuffix ? ` ${house.numberSuffix}` : ""}`;
  const written = spokenStreet(line.properties, () => 0.9, { noType: category === "no_type" });
  const said = spokenStreet(line.properties, next, { noType: category === "no_type" });
  const community = String(line.properties.PostComm_L);
  const zip = String(line.properties.PostCode_L);
  const unit = house.unit;
  const quadrantApart = category === "quadrant" && line.properties.St_PosDir;
  const writtenStreet = quadrantApart ? `${written.replace(/ [NS][EW]$/, "")}, ${line.properties.St_PosDir}` : written;
  const forms: AddressCase["forms"] = {
    written: cased(`${number} ${writtenStreet}${unit ? `, ${unitWritten(unit, next)}` : ""}, ${community}, ${stateWritten(next)} ${zipWritten(zip, next)}`, next),
    spoken_in: `${pick(next, ["I'm at ", "we're at ", "", "it's "])}${number.replace(" 1/2", pick(next, [" 1/2", "½", " ½"]))} ${said}${unit ? ` ${unitSpoken(unit, next)}` : ""} in ${next() < 0.3 ? community.toLowerCase() : community}`,
    no_commas: cased(`${number} ${written}${unit ? ` ${unitWritten(unit, next)}` : ""} ${community} ${next() < 0.5 ? "IL" : "Illinois"} ${zipWritten(zip, next)}`, next),
    extra_words: `${pick(next, BUSINESSES)}${next() < 0.5 ? "," : ""} ${number} ${writtenStreet}${unit ? ` ${unitWritten(unit, next)}` : ""}, ${community}, ${stateWritten(next)} ${zip}${pick(next, [", USA", " USA", ", United States", " United States of America"])}`,
  };
  if (!prefix && !house.numberSuffix) forms.number_in_words = `${pick(next, ["I'm at ", "we're at ", "", "the address is "])}${numberSaid(house.number, next)} ${said}${unit ? ` ${unitSpoken(unit, next)}` : ""}${next() < 0.5 ? ` in ${community}` : `, ${community}`}`;
  // Only where the street and number are the data's in one community: numbered streets are in every town.
  if (line.eastWest || line.properties.St_PosDir) forms.unknown_town = `${number} ${said}${unit ? ` ${unitWritten(unit, next)}` : ""}${next() < 0.5 ? `, ${UNKNOWN_TOWN}` : ` in ${UNKNOWN_TOWN}`}`;
  return { category, parts: { number, street: written, unit, community, zip }, forms, latitude: house.lat, longitude: house.lon, precision };
}
