import { invalidParameter } from "../../domain-error";
import { isStorableText } from "../../storable-text";
import { spokenStreet } from "./usps";

/** The two layers of the centre's GIS data (NENA-STA-006 names them AddressPoints and RoadCenterlines). */
export const GIS_LAYERS = ["address_points", "centrelines"] as const;
export type GisLayerName = (typeof GIS_LAYERS)[number];

/** The street name as NENA splits it, as given (standardised when the index is built). */
export interface StreetFields {
  stPreDir: string | null;
  stPreTyp: string | null;
  stName: string;
  stPosTyp: string | null;
  stPosDir: string | null;
  community: string | null;
  postCode: string | null;
  state: string | null;
}

export interface AddressPointRow extends StreetFields {
  addNumber: number;
  addNumPre: string | null;
  addNumSuf: string | null;
  unit: string | null;
  longitude: number;
  latitude: number;
}

export interface CentrelineRow extends StreetFields {
  fromAddrL: number | null;
  toAddrL: number | null;
  fromAddrR: number | null;
  toAddrR: number | null;
  parityL: string | null;
  parityR: string | null;
  /** [lon, lat, lon, lat, ...] from the line's start (its FromAddr end). */
  coordinates: number[];
}

/**
 * A centreline's road attributes as NENA-STA-006 names them, for the road network
 * (lib/geocoding/centre/road-network.ts): RoadClass as written, SpeedLimit in miles per hour as
 * posted, OneWay B (both ways), FT (from the FromAddr end to the ToAddr end only) or TF (the other
 * way only); null where the data leaves a field out.
 */
export interface RoadFields {
  roadClass: string | null;
  speedLimit: number | null;
  oneWay: OneWay | null;
}
export const ONE_WAYS = ["B", "FT", "TF"] as const;
export type OneWay = (typeof ONE_WAYS)[number];

/** A centreline as the import stores it and the index's load reads it: its ranges, names and road attributes. */
export type RoadCentrelineRow = CentrelineRow & RoadFields;

/** A feature's attributes by lower-case field name, and where it sits in the file for errors. */
export interface FeatureInput {
  /** "line 12" (CSV) or "feature 11" (GeoJSON, counted from 0). */
  where: string;
  fields: Map<string, unknown>;
  /** GeoJSON geometry, or undefined for CSV (points from lon/lat columns, lines from a WKT column). */
  geometry?: unknown;
}

export const featureFields = (record: Record<string, unknown>) =>
  new Map(Object.entries(record).map(([name, value]) => [name.toLowerCase(), value]));

/** A file that cannot be read at `where` ("line 4", "feature 11", "header"). */
export const malformedFile = (where: string, problem: string) =>
  invalidParameter("Invalid GIS data", `${where}: ${problem}; nothing was imported`);

const fail = (input: FeatureInput, field: string, problem: string) =>
  invalidParameter("Invalid GIS data", `${input.where}, field ${field}: ${problem}; nothing was imported`);

/**
 * A field's text, the first of `names` present. Every text stored comes through here: one
 * PostgreSQL cannot hold (a NUL, a lone surrogate from a GeoJSON escape) refuses the file naming
 * the field, as the API refuses such text anywhere (lib/storable-text.ts). A byte-order mark
 * (U+FEFF) is no part of a name and is dropped wherever it stands: the GeoJSON reader
 * (@streamparser/json) already drops it, so CSV and GeoJSON read one cell the same way.
 */
function text(input: FeatureInput, ...names: string[]): string | null {
  for (const name of names) {
    const value = input.fields.get(name.toLowerCase());
    if (value === undefined || value === null) continue;
    const trimmed = String(value).replaceAll("\uFEFF", "").trim();
    if (!isStorableText(trimmed)) throw fail(input, name, "contains a character that cannot be stored (U+0000 or a lone surrogate)");
    if (trimmed) return trimmed;
  }
  return null;
}

function requiredText(input: FeatureInput, name: string): string {
  const value = text(input, name);
  if (value === null) throw fail(input, name, "missing");
  return value;
}

const MAX_HOUSE_NUMBER = 2_000_000_000;

function wholeNumber(input: FeatureInput, name: string, required: true): number;
function wholeNumber(input: FeatureInput, name: string, required: false): number | null;
function wholeNumber(input: FeatureInput, name: string, required: boolean): number | null {
  const value = text(input, name);
  if (value === null) {
    if (required) throw fail(input, name, "missing");
    return null;
  }
  if (!/^\d+$/.test(value) || Number(value) > MAX_HOUSE_NUMBER) throw fail(input, name, `"${value.slice(0, 40)}" is not a whole number`);
  return Number(value);
}

function coordinate(input: FeatureInput, field: string, value: unknown, limit: number): number {
  const number = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(number) || Math.abs(number) > limit) throw fail(input, field, `${JSON.stringify(value)?.slice(0, 40)} is not a coordinate`);
  return number;
}

function lonLat(input: FeatureInput, field: string, pair: unknown): [number, number] {
  if (!Array.isArray(pair) || pair.length < 2) throw fail(input, field, "a position must be [longitude, latitude]");
  return [coordinate(input, field, pair[0], 180), coordinate(input, field, pair[1], 90)];
}

function pointOf(input: FeatureInput): [number, number] {
  if (input.geometry === undefined) {
    const lonField = ["lon", "longitude", "x"].find((name) => input.fields.has(name)) ?? "lon";
    const latField = ["lat", "latitude", "y"].find((name) => input.fields.has(name)) ?? "lat";
    return [coordinate(input, lonField, input.fields.get(lonField), 180), coordinate(input, latField, input.fields.get(latField), 90)];
  }
  const geometry = input.geometry as { type?: unknown; coordinates?: unknown } | null;
  if (geometry?.type !== "Point") throw fail(input, "geometry", "an address point must be a Point");
  return lonLat(input, "geometry", geometry.coordinates);
}

/** A CSV line's WKT `LINESTRING (lon lat, lon lat, ...)`, or a GeoJSON LineString. */
function lineOf(input: FeatureInput): number[] {
  let positions: unknown[];
  if (input.geometry === undefined) {
    const wkt = text(input, "wkt", "geometry") ?? "";
    const match = /^LINESTRING\s*\(([^)]*)\)$/i.exec(wkt);
    if (!match) throw fail(input, "WKT", "a centreline needs a LINESTRING (lon lat, ...) column");
    positions = match[1].split(",").map((position) => position.trim().split(/\s+/));
  } else {
    const geometry = input.geometry as { type?: unknown; coordinates?: unknown } | null;
    if (geometry?.type !== "LineString" || !Array.isArray(geometry.coordinates)) throw fail(input, "geometry", "a centreline must be a LineString");
    positions = geometry.coordinates;
  }
  if (positions.length < 2) throw fail(input, "geometry", "a centreline needs two positions or more");
  return positions.flatMap((position) => lonLat(input, "geometry", position));
}

function streetFields(input: FeatureInput, side = ""): StreetFields {
  return {
    stPreDir: text(input, "St_PreDir"),
    stPreTyp: text(input, "St_PreTyp"),
    stName: requiredText(input, "St_Name"),
    stPosTyp: text(input, "St_PosTyp"),
    stPosDir: text(input, "St_PosDir"),
    community: text(input, `PostComm${side}`, `Post_Comm${side}`, "Post_Comm", `IncMuni${side}`, `Inc_Muni${side}`, "Inc_Muni"),
    postCode: text(input, `PostCode${side}`, `Post_Code${side}`, "Post_Code"),
    state: text(input, `State${side}`, "State"),
  };
}

const isOpenAddresses = (input: FeatureInput) => input.fields.has("number") && input.fields.has("street") && !input.fields.has("st_name");

/** OpenAddresses' one-line STREET split into NENA's parts; NUMBER "12B" keeps B as AddNum_Suf. */
function openAddressesPoint(input: FeatureInput): AddressPointRow {
  const number = requiredText(input, "NUMBER");
  const parts = /^(\d+)\s*(.*)$/.exec(number);
  if (!parts || Number(parts[1]) > MAX_HOUSE_NUMBER) throw fail(input, "NUMBER", `"${number.slice(0, 40)}" does not start with a house number`);
  const street = spokenStreet(requiredText(input, "STREET"));
  if (!street.name) throw fail(input, "STREET", "no street name");
  const [longitude, latitude] = pointOf(input);
  return {
    addNumber: Number(parts[1]),
    addNumPre: null,
    addNumSuf: parts[2].replace(/^[-\s]+/, "") || null,
    stPreDir: street.preDir || null,
    stPreTyp: null,
    stName: street.name,
    stPosTyp: street.postType || null,
    stPosDir: street.postDir || null,
    unit: text(input, "UNIT"),
    community: text(input, "CITY", "DISTRICT"),
    postCode: text(input, "POSTCODE"),
    state: text(input, "REGION"),
    longitude,
    latitude,
  };
}

export function addressPointRow(input: FeatureInput): AddressPointRow {
  if (isOpenAddresses(input)) return openAddressesPoint(input);
  const addNumber = wholeNumber(input, "Add_Number", true);
  const street = streetFields(input);
  const [longitude, latitude] = pointOf(input);
  return { addNumber, addNumPre: text(input, "AddNum_Pre"), addNumSuf: text(input, "AddNum_Suf"), unit: text(input, "Unit"), ...street, longitude, latitude };
}

const PARITIES = new Set(["O", "E", "B", "Z"]);

function parity(input: FeatureInput, name: string): string | null {
  const value = text(input, name)?.toUpperCase() ?? null;
  if (value !== null && !PARITIES.has(value)) throw fail(input, name, `"${value.slice(0, 10)}" is not O, E, B or Z`);
  return value;
}

/** The highest SpeedLimit taken (miles per hour): a larger number is a mistake in the data, not a road. */
const MAX_SPEED_LIMIT_MPH = 100;

function roadFields(input: FeatureInput): RoadFields {
  const speed = wholeNumber(input, "SpeedLimit", false);
  if (speed !== null && speed > MAX_SPEED_LIMIT_MPH) throw fail(input, "SpeedLimit", `${speed} is not a speed limit in miles per hour (0 to ${MAX_SPEED_LIMIT_MPH})`);
  const oneWay = text(input, "OneWay")?.toUpperCase() ?? null;
  if (oneWay !== null && !(ONE_WAYS as readonly string[]).includes(oneWay)) throw fail(input, "OneWay", `"${oneWay.slice(0, 10)}" is not B, FT or TF`);
  return { roadClass: text(input, "RoadClass"), speedLimit: speed || null, oneWay: oneWay as OneWay | null };
}

export function centrelineRow(input: FeatureInput): RoadCentrelineRow {
  return {
    ...roadFields(input),
    fromAddrL: wholeNumber(input, "FromAddr_L", false),
    toAddrL: wholeNumber(input, "ToAddr_L", false),
    fromAddrR: wholeNumber(input, "FromAddr_R", false),
    toAddrR: wholeNumber(input, "ToAddr_R", false),
    parityL: parity(input, "Parity_L"),
    parityR: parity(input, "Parity_R"),
    ...streetFields(input, "_L"),
    coordinates: lineOf(input),
  };
}

/** Which layer a file holds, from its first feature: a line, or range fields, make centrelines. */
export function layerOf(input: FeatureInput): GisLayerName {
  const type = (input.geometry as { type?: unknown } | undefined)?.type;
  if (type === "LineString" || input.fields.has("fromaddr_l") || input.fields.has("wkt")) return "centrelines";
  return "address_points";
}
