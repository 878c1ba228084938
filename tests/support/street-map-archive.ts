import { zxyToTileId } from "pmtiles";

/**
 * A tiny PMTiles v3 archive written from scratch (tests/fixtures/street-map/generate.ts): one
 * Mapbox Vector Tile at zoom 14 over Miami Beach, in Protomaps' basemap layers, uncompressed. It
 * holds what the street map must draw and name (land, water, Collins Avenue, the town of Miami
 * Beach) and what it must not name (a ZIP code's place "Naval Supply Center", a point of interest
 * "First Union Bank"). The protobuf is written by hand: a few varints, no package.
 */
export const STREET_MAP_TILE = { z: 14, lat: 25.7907, lon: -80.13 } as const;

export function tileOf(z: number, lat: number, lon: number): { x: number; y: number } {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return { x: Math.floor(((lon + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n) };
}

class Writer {
  private bytes: number[] = [];
  varint(value: number): this {
    let v = value;
    while (v >= 0x80) {
      this.bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.bytes.push(v);
    return this;
  }
  key(field: number, wire: number): this {
    return this.varint((field << 3) | wire);
  }
  bytesField(field: number, data: Uint8Array | number[]): this {
    this.key(field, 2).varint(data.length);
    this.bytes.push(...data);
    return this;
  }
  string(field: number, text: string): this {
    return this.bytesField(field, [...Buffer.from(text, "utf8")]);
  }
  packed(field: number, values: number[]): this {
    const inner = new Writer();
    for (const value of values) inner.varint(value);
    return this.bytesField(field, inner.done());
  }
  done(): number[] {
    return this.bytes;
  }
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31);
const command = (id: number, count: number) => (count << 3) | id;

type Geometry = { type: 1 | 2 | 3; points: [number, number][] };
interface FeatureSpec {
  geometry: Geometry;
  props: Record<string, string | number>;
}

/** Commands of one geometry in tile coordinates (0..4096): a point, a line, or a closed ring. */
function geometryCommands({ type, points }: Geometry): number[] {
  const out: number[] = [];
  let [cx, cy] = [0, 0];
  const delta = ([x, y]: [number, number]) => {
    const d = [zigzag(x - cx), zigzag(y - cy)];
    [cx, cy] = [x, y];
    return d;
  };
  out.push(command(1, 1), ...delta(points[0]));
  if (type !== 1) {
    const rest = type === 3 ? points.slice(1, -1) : points.slice(1);
    out.push(command(2, rest.length), ...rest.flatMap(delta));
    if (type === 3) out.push(command(7, 1));
  }
  return out;
}

function layer(name: string, features: FeatureSpec[]): number[] {
  const keys: string[] = [];
  const values: (string | number)[] = [];
  const index = <T>(list: T[], item: T) => (list.includes(item) ? list.indexOf(item) : list.push(item) - 1);
  const writer = new Writer().string(1, name);
  for (const feature of features) {
    const tags = Object.entries(feature.props).flatMap(([key, value]) => [index(keys, key), index(values, value)]);
    const encoded = new Writer().packed(2, tags).key(3, 0).varint(feature.geometry.type).packed(4, geometryCommands(feature.geometry));
    writer.bytesField(2, encoded.done());
  }
  for (const key of keys) writer.string(3, key);
  for (const value of values) {
    writer.bytesField(4, typeof value === "string" ? new Writer().string(1, value).done() : new Writer().key(5, 0).varint(value).done());
  }
  return writer.key(5, 0).varint(4096).key(15, 0).varint(2).done();
}

const WHOLE_TILE: [number, number][] = [[0, 0], [4096, 0], [4096, 4096], [0, 4096], [0, 0]];

/** The tile's layers: land and sea, two streets, a town, a ZIP code's place and a bank. */
function tile(): Uint8Array {
  const layers: [string, FeatureSpec[]][] = [
    ["earth", [{ geometry: { type: 3, points: WHOLE_TILE }, props: { kind: "earth" } }]],
    ["water", [{ geometry: { type: 3, points: [[3000, 0], [4096, 0], [4096, 4096], [3000, 4096], [3000, 0]] }, props: { kind: "ocean", name: "Atlantic Ocean" } }]],
    [
      "roads",
      [
        { geometry: { type: 2, points: [[2000, 0], [2100, 4096]] }, props: { kind: "major_road", kind_detail: "primary", name: "Collins Avenue", min_zoom: 7 } },
        { geometry: { type: 2, points: [[0, 2048], [2900, 2000]] }, props: { kind: "minor_road", kind_detail: "residential", name: "Lincoln Road", min_zoom: 12 } },
      ],
    ],
    [
      "places",
      [
        { geometry: { type: 1, points: [[1500, 1500]] }, props: { kind: "locality", kind_detail: "city", name: "Miami Beach", min_zoom: 8, population_rank: 10 } },
        { geometry: { type: 1, points: [[1000, 3000]] }, props: { kind: "postal_code", name: "Naval Supply Center", min_zoom: 8, population_rank: 10 } },
      ],
    ],
    ["pois", [{ geometry: { type: 1, points: [[2500, 2500]] }, props: { kind: "bank", name: "First Union Bank", min_zoom: 12 } }]],
  ];
  const writer = new Writer();
  for (const [name, features] of layers) writer.bytesField(3, layer(name, features));
  return Uint8Array.from(writer.done());
}

/** The archive's bytes: header, root directory (one entry), metadata, the tile. */
export function streetMapArchive(): Buffer {
  const { z, lat, lon } = STREET_MAP_TILE;
  const { x, y } = tileOf(z, lat, lon);
  const tileBytes = tile();
  const directory = Buffer.from(new Writer().varint(1).varint(zxyToTileId(z, x, y)).varint(1).varint(tileBytes.length).varint(1).done());
  const metadata = Buffer.from(
    JSON.stringify({
      name: "Mayday test street map",
      attribution: "Synthetic test data",
      vector_layers: ["earth", "water", "roads", "places", "pois"].map((id) => ({ id, fields: {} })),
    }),
  );
  const header = Buffer.alloc(127);
  header.write("PMTiles", 0, "latin1");
  header.writeUInt8(3, 7);
  const rootOffset = 127;
  const metadataOffset = rootOffset + directory.length;
  const dataOffset = metadataOffset + metadata.length;
  const u64 = (offset: number, value: number) => header.writeBigUInt64LE(BigInt(value), offset);
  u64(8, rootOffset);
  u64(16, directory.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, dataOffset);
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, tileBytes.length);
  u64(72, 1);
  u64(80, 1);
  u64(88, 1);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(1, 99); // tile type: MVT
  header.writeUInt8(z, 100);
  header.writeUInt8(z, 101);
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  const n = 2 ** z;
  const lonOf = (tx: number) => (tx / n) * 360 - 180;
  const latOf = (ty: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * ty) / n))) * 180) / Math.PI;
  header.writeInt32LE(e7(lonOf(x)), 102);
  header.writeInt32LE(e7(latOf(y + 1)), 106);
  header.writeInt32LE(e7(lonOf(x + 1)), 110);
  header.writeInt32LE(e7(latOf(y)), 114);
  header.writeUInt8(z, 118);
  header.writeInt32LE(e7(lon), 119);
  header.writeInt32LE(e7(lat), 123);
  return Buffer.concat([header, directory, metadata, Buffer.from(tileBytes)]);
}
