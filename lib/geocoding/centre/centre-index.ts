import { normalise } from "../text";
import { editDistance } from "./edit-distance";
import type { AddressPointRow, CentrelineRow, StreetFields } from "./fields";
import { distanceMeters, endpointKeys, type LonLat, pointAlong } from "./geometry";
import { standardStreet, type StreetName, streetLabel, unitKey } from "./usps";

/** Where a feature is: its community, ZIP code and state as the data writes them. */
export type FeaturePlace = Pick<StreetFields, "community" | "postCode" | "state">;

/** A house number's parts and unit as the data writes them. */
export interface WrittenNumber {
  number: number;
  prefix?: string;
  suffix?: string;
  unit?: string;
}

/** One street of one community: the address points and centrelines that carry its name. */
export interface Street extends StreetName {
  community: string;
  /** Its name fields and place as its first feature writes them (a later feature fills a ZIP or state the first lacks). */
  written: Omit<StreetFields, "community" | "postCode" | "state"> & FeaturePlace;
  /** The ZIP code of its first feature that has one, for "1203 Oak Ave 62701" without a community. */
  postCode?: string;
  label: string;
  /** Its address points: [pointStart, pointEnd) of the index's arrays, sorted by number. */
  pointStart: number;
  pointEnd: number;
  lines: number[];
}

/** A house stands this far from the centreline, on its side of the road. */
export const HOUSE_SETBACK_M = 8;

/** How many typing errors a street name of this length may carry and still be recognised. */
export const allowedTypos = (length: number) => (length >= 7 ? 2 : length >= 4 ? 1 : 0);

const letterMask = (word: string) => {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) % 31);
  return mask;
};

const bitCount = (value: number) => {
  let count = 0;
  for (let v = value >>> 0; v; v &= v - 1) count++;
  return count;
};

/**
 * The centre's GIS data in memory, built once from the tables (lib/geocoding/centre/loaded.ts):
 * streets by name, address points in typed arrays sorted by street and number (binary search),
 * centrelines with their ranges. Memory grows with the GIS data only (about 35 bytes an address
 * point; docs/performance.md), never with calls.
 */
export class CentreIndex {
  readonly streets: Street[] = [];
  private readonly streetsByName = new Map<string, number[]>();
  /** Distinct street names in order, for names typed so far (made at the first such lookup; the index never changes after its build). */
  private sortedNames: string[] | undefined;
  /** Distinct street names by length, with a letter mask to skip most of them cheaply. */
  private readonly namesByLength = new Map<number, { name: string; mask: number }[]>();
  readonly communities = new Set<string>();
  readonly postCodes = new Set<string>();
  readonly states = new Set<string>();

  private pointNumber = new Int32Array(0);
  private pointLon = new Float64Array(0);
  private pointLat = new Float64Array(0);
  private pointUnit: (string | undefined)[] = [];
  private pointNumberSuffix: (string | undefined)[] = [];
  private pointNumberPrefix: (string | undefined)[] = [];
  /** Each point's community, ZIP and state, an index into `places` (few distinct ones: 4 bytes a point). */
  private pointPlace = new Int32Array(0);
  private readonly places: FeaturePlace[] = [];
  private readonly placeIds = new Map<string, number>();
  /** A point's number prefix, suffix and unit as written, only where it has one. */
  private pointWritten: (Omit<WrittenNumber, "number"> | undefined)[] = [];
  private readonly lineRanges: Int32Array[] = [];
  private readonly lineParity: string[] = [];
  private readonly lineCoordinates: Float64Array[] = [];
  private readonly streetIds = new Map<string, number>();

  private constructor() {}

  /** The index of `pointCount` address points at most and the lines, read as they stream in (one pass each). */
  static async build(
    points: AsyncIterable<AddressPointRow> | Iterable<AddressPointRow>,
    pointCount: number,
    lines: AsyncIterable<CentrelineRow> | Iterable<CentrelineRow>,
  ): Promise<CentreIndex> {
    const index = new CentreIndex();
    await index.addPoints(points, pointCount);
    for await (const row of lines) index.addLine(row);
    return index;
  }

  /** An index of centrelines only, built at once (the scenario street set, lib/geocoding/scenario-streets.ts). */
  static fromLines(lines: Iterable<CentrelineRow>): CentreIndex {
    const index = new CentreIndex();
    for (const row of lines) index.addLine(row);
    return index;
  }

  private async addPoints(points: AsyncIterable<AddressPointRow> | Iterable<AddressPointRow>, pointCount: number): Promise<void> {
    const pointStreet = new Int32Array(pointCount);
    const number = new Int32Array(pointCount);
    const lon = new Float64Array(pointCount);
    const lat = new Float64Array(pointCount);
    const unit: (string | undefined)[] = [];
    const suffix: (string | undefined)[] = [];
    const prefix: (string | undefined)[] = [];
    const place = new Int32Array(pointCount);
    const written: (Omit<WrittenNumber, "number"> | undefined)[] = [];
    let count = 0;
    for await (const row of points) {
      if (count === pointCount) break;
      pointStreet[count] = this.streetOf(row);
      number[count] = row.addNumber;
      lon[count] = row.longitude;
      lat[count] = row.latitude;
      if (row.unit) unit[count] = unitKey(row.unit) || undefined;
      if (row.addNumSuf) suffix[count] = normalise(row.addNumSuf) || undefined;
      if (row.addNumPre) prefix[count] = normalise(row.addNumPre).replace(/ /g, "") || undefined;
      place[count] = this.placeOf(row);
      if (row.addNumPre || row.addNumSuf || row.unit) {
        written[count] = { prefix: row.addNumPre ?? undefined, suffix: row.addNumSuf ?? undefined, unit: row.unit ?? undefined };
      }
      count++;
    }
    const order = Int32Array.from({ length: count }, (_, i) => i).sort((a, b) => pointStreet[a] - pointStreet[b] || number[a] - number[b]);
    this.pointNumber = Int32Array.from(order, (i) => number[i]);
    this.pointLon = Float64Array.from(order, (i) => lon[i]);
    this.pointLat = Float64Array.from(order, (i) => lat[i]);
    this.pointUnit = Array.from(order, (i) => unit[i]);
    this.pointNumberSuffix = Array.from(order, (i) => suffix[i]);
    // Most data has no number prefixes: no array of a million empty slots then.
    this.pointNumberPrefix = prefix.length > 0 ? Array.from(order, (i) => prefix[i]) : [];
    this.pointPlace = Int32Array.from(order, (i) => place[i]);
    this.pointWritten = written.length > 0 ? Array.from(order, (i) => written[i]) : [];
    for (let k = 0; k < count; k++) {
      const street = this.streets[pointStreet[order[k]]];
      if (street.pointEnd === 0) street.pointStart = k;
      street.pointEnd = k + 1;
    }
  }

  private addLine(row: CentrelineRow): void {
    const id = this.lineCoordinates.length;
    this.streets[this.streetOf(row)].lines.push(id);
    this.lineRanges.push(Int32Array.of(row.fromAddrL ?? -1, row.toAddrL ?? -1, row.fromAddrR ?? -1, row.toAddrR ?? -1));
    this.lineParity.push(`${row.parityL ?? "B"}${row.parityR ?? "B"}`);
    this.lineCoordinates.push(Float64Array.from(row.coordinates));
  }

  get pointCount(): number {
    return this.pointNumber.length;
  }

  get lineCount(): number {
    return this.lineCoordinates.length;
  }

  private placeOf(row: FeaturePlace): number {
    const key = `${row.community ?? ""}|${row.postCode ?? ""}|${row.state ?? ""}`;
    let id = this.placeIds.get(key);
    if (id === undefined) {
      id = this.places.length;
      this.places.push({ community: row.community, postCode: row.postCode, state: row.state });
      this.placeIds.set(key, id);
    }
    return id;
  }

  private streetOf(row: AddressPointRow | CentrelineRow): number {
    const name = standardStreet({ preDir: row.stPreDir, preType: row.stPreTyp, name: row.stName, postType: row.stPosTyp, postDir: row.stPosDir });
    const community = normalise(row.community ?? "");
    const key = `${name.preDir}|${name.preType}|${name.name}|${name.postType}|${name.postDir}|${community}`;
    let id = this.streetIds.get(key);
    if (id === undefined) {
      id = this.streets.length;
      this.streetIds.set(key, id);
      const label = streetLabel(name) + (row.community ? `, ${row.community}` : "");
      const written = { stPreDir: row.stPreDir, stPreTyp: row.stPreTyp, stName: row.stName, stPosTyp: row.stPosTyp, stPosDir: row.stPosDir, community: row.community, postCode: row.postCode, state: row.state };
      this.streets.push({ ...name, community, written, label, pointStart: 0, pointEnd: 0, lines: [] });
      const sameName = this.streetsByName.get(name.name);
      if (sameName) sameName.push(id);
      else {
        this.streetsByName.set(name.name, [id]);
        const bucket = this.namesByLength.get(name.name.length) ?? [];
        bucket.push({ name: name.name, mask: letterMask(name.name) });
        this.namesByLength.set(name.name.length, bucket);
      }
    }
    const street = this.streets[id];
    street.postCode ??= row.postCode?.slice(0, 5) || undefined;
    street.written.postCode ??= row.postCode;
    street.written.state ??= row.state;
    if (community) this.communities.add(community);
    if (row.postCode) this.postCodes.add(row.postCode.slice(0, 5));
    if (row.state) this.states.add(row.state.toUpperCase());
    return id;
  }

  /**
   * Streets whose name is `name` or within its allowed typing errors, closest first, each with its
   * distance. Exact names answer from a map; a miss scans only the names of nearby lengths whose
   * letters nearly agree.
   */
  streetsNamed(name: string): { street: number; typos: number }[] {
    const exact = this.streetsNamedExactly(name);
    if (exact.length > 0) return exact;
    // A name said one letter short ("Linlcn" for "Lincoln") is allowed the errors of the longer name.
    const max = allowedTypos(name.length + 1);
    if (max === 0) return [];
    const mask = letterMask(name);
    const found: { street: number; typos: number }[] = [];
    for (let length = name.length - max; length <= name.length + max; length++) {
      const allowed = Math.min(max, allowedTypos(Math.max(length, name.length)));
      for (const candidate of this.namesByLength.get(length) ?? []) {
        if (allowed === 0 || bitCount(candidate.mask ^ mask) > 2 * allowed) continue;
        const typos = editDistance(name, candidate.name, allowed);
        if (typos <= allowed) for (const street of this.streetsByName.get(candidate.name)!) found.push({ street, typos });
      }
    }
    return found.sort((a, b) => a.typos - b.typos);
  }

  /**
   * Distinct street names that start with `prefix` ("oa" -> "oak", "oakland"), in order, at most
   * `max`: a binary search of the sorted names, then the names it finds, never the address points.
   */
  streetNamesStartingWith(prefix: string, max: number): string[] {
    this.sortedNames ??= [...this.streetsByName.keys()].sort();
    const names = this.sortedNames;
    let low = 0;
    let high = names.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (names[middle] < prefix) low = middle + 1;
      else high = middle;
    }
    const found: string[] = [];
    for (let k = low; k < names.length && found.length < max && names[k].startsWith(prefix); k++) found.push(names[k]);
    return found;
  }

  /** Streets whose name is exactly `name` (a map lookup). */
  streetsNamedExactly(name: string): { street: number; typos: number }[] {
    return (this.streetsByName.get(name) ?? []).map((street) => ({ street, typos: 0 }));
  }

  /**
   * The address point of `number` on a street (the unit's when it has one; else the building's),
   * its number suffix ("1/2", "B") and prefix ("94-") preferred as said; a point of another prefix
   * than the one said is another house.
   */
  addressPoint(streetId: number, number: number, said: { unit?: string; numberSuffix?: string; numberPrefix?: string } = {}): (LonLat & { point: number }) | undefined {
    const { unit, numberSuffix, numberPrefix } = said;
    const street = this.streets[streetId];
    let low = street.pointStart;
    let high = street.pointEnd;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.pointNumber[middle] < number) low = middle + 1;
      else high = middle;
    }
    let best: number | undefined;
    let bestScore = -1;
    for (let k = low; k < street.pointEnd && this.pointNumber[k] === number; k++) {
      const prefix = this.pointNumberPrefix[k];
      if (numberPrefix && prefix && prefix !== numberPrefix) continue;
      const score = (this.pointUnit[k] === unit ? 2 : this.pointUnit[k] === undefined ? 1 : 0) + (this.pointNumberSuffix[k] === numberSuffix ? 4 : 0) + (prefix === numberPrefix ? 8 : 0);
      if (score > bestScore) [best, bestScore] = [k, score];
    }
    return best === undefined ? undefined : { lon: this.pointLon[best], lat: this.pointLat[best], point: best };
  }

  /** An address point's number as written and its place (`point` as `addressPoint` answers it). */
  pointAddress(point: number): { number: WrittenNumber; place: FeaturePlace } {
    return { number: { number: this.pointNumber[point], ...this.pointWritten[point] }, place: this.places[this.pointPlace[point]] };
  }

  /** `number` placed along the centreline whose range on one side holds it (parity agreeing). */
  interpolate(streetId: number, number: number): LonLat | undefined {
    for (const line of this.streets[streetId].lines) {
      const ranges = this.lineRanges[line];
      for (const side of [0, 1]) {
        const from = ranges[2 * side];
        const to = ranges[2 * side + 1];
        if (from < 0 || to < 0 || number < Math.min(from, to) || number > Math.max(from, to)) continue;
        const parity = this.lineParity[line][side];
        if (parity === "Z" || (parity === "O" && number % 2 === 0) || (parity === "E" && number % 2 === 1)) continue;
        const fraction = from === to ? 0.5 : (number - from) / (to - from);
        return pointAlong(this.lineCoordinates[line], fraction, side === 0 ? HOUSE_SETBACK_M : -HOUSE_SETBACK_M);
      }
    }
    return undefined;
  }

  /** Where a centreline of one street meets one of the other: a node they share. */
  intersection(first: number, second: number): LonLat | undefined {
    const nodes = new Set(this.streets[first].lines.flatMap((line) => endpointKeys(this.lineCoordinates[line])));
    for (const line of this.streets[second].lines) {
      for (const key of endpointKeys(this.lineCoordinates[line])) {
        if (!nodes.has(key)) continue;
        const [lon, lat] = key.split(",").map(Number);
        return { lon, lat };
      }
    }
    return undefined;
  }

  /** A street's middle (its middle centreline's, else its middle address point) and half its length. */
  streetMiddle(streetId: number): { point: LonLat; halfLengthMeters: number } | undefined {
    const street = this.streets[streetId];
    const points: LonLat[] = street.lines.flatMap((line) => {
      const coordinates = this.lineCoordinates[line];
      return [{ lon: coordinates[0], lat: coordinates[1] }, { lon: coordinates.at(-2)!, lat: coordinates.at(-1)! }];
    });
    for (let k = street.pointStart; k < street.pointEnd; k++) points.push({ lon: this.pointLon[k], lat: this.pointLat[k] });
    if (points.length === 0) return undefined;
    const middle = street.lines.length > 0
      ? pointAlong(this.lineCoordinates[street.lines[street.lines.length >> 1]], 0.5, 0)
      : points[points.length >> 1];
    const corner = points.reduce((low, point) => ({ lon: Math.min(low.lon, point.lon), lat: Math.min(low.lat, point.lat) }));
    const opposite = points.reduce((high, point) => ({ lon: Math.max(high.lon, point.lon), lat: Math.max(high.lat, point.lat) }));
    const halfLengthMeters = distanceMeters(corner, opposite) / 2;
    return { point: middle, halfLengthMeters };
  }
}
