import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { serialize } from "flatgeobuf/lib/mjs/geojson.js";
import { calcTreeSize } from "flatgeobuf/lib/mjs/packedrtree.js";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as layersRoute, POST as importRoute } from "@/app/api/gis/route";
import { getDb } from "@/lib/db/client";
import { distanceMeters } from "@/lib/geocoding/centre/geometry";
import { importGisLayer, listGisLayers } from "@/lib/geocoding/centre/import";
import { getGeocoder } from "@/lib/geocoding/geocoder";
import { STREET_LEVEL } from "@/lib/geocoding/types";
import { setRateLimiterForTests } from "@/lib/rate-limit/get-rate-limiter";
import { MemoryRateLimiter } from "@/lib/rate-limit/memory";
import { apiRequest } from "../support/auth";
import type { SpokenAddress } from "../support/gis-town";
import { signedIn } from "../support/people";

const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");
const fixture = (name: string) => path.join(FIXTURES, name);
const spoken: SpokenAddress[] = JSON.parse(readFileSync(fixture("spoken-addresses.json"), "utf8"));

const fromFile = (name: string) => createReadStream(fixture(name)) as AsyncIterable<Uint8Array>;
const fromText = (text: string) => Readable.from([Buffer.from(text)]) as AsyncIterable<Uint8Array>;

async function importFixtures() {
  await importGisLayer({ format: "csv", chunks: fromFile("address-points.csv"), sourceName: "address-points.csv" });
  await importGisLayer({ format: "geojson", chunks: fromFile("centrelines.geojson"), sourceName: "centrelines.geojson" });
}

async function layerCounts() {
  return Object.fromEntries((await listGisLayers()).map((layer) => [layer.layer, layer.features]));
}

describe("the centre's GIS data", () => {
  beforeAll(importFixtures, 120_000);

  it("imports the synthetic town: address points from CSV, centrelines from GeoJSON, counted per layer", async () => {
    const csvRows = readFileSync(fixture("address-points.csv"), "utf8").trim().split("\n").length - 1;
    const lines = JSON.parse(readFileSync(fixture("centrelines.geojson"), "utf8")).features.length;
    expect(await layerCounts()).toEqual({ address_points: csvRows, centrelines: lines });
    const db = await getDb();
    const [{ count }] = await db.$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM gis_address_points`;
    expect(count).toBe(csvRows);
  });

  it("places at least 95% of 200 spoken addresses within 30 m at the right precision; never a far point called street level", async () => {
    const geocoder = getGeocoder();
    const outcomes = [];
    for (const address of spoken) {
      const found = await geocoder.geocode(address.text);
      const metres = found ? distanceMeters({ lon: found.longitude, lat: found.latitude }, { lon: address.longitude, lat: address.latitude }) : Infinity;
      outcomes.push({ address, found, metres, right: found?.precision === address.precision && metres <= 30 });
    }
    const wrong = outcomes.filter((outcome) => !outcome.right);
    const misses = wrong.map(({ address, found, metres }) => `${address.text} (${address.precision}) -> ${found?.precision ?? "nothing"} ${Math.round(metres)} m`);
    expect(outcomes.length - wrong.length, misses.join("\n")).toBeGreaterThanOrEqual(190);
    for (const { found, metres } of outcomes) {
      if (found && STREET_LEVEL.includes(found.precision)) expect(metres).toBeLessThanOrEqual(found.uncertaintyMeters);
    }
    expect(outcomes.every(({ found }) => found?.source === "centre_gis")).toBe(true);
  });

  it("says street when the number is nowhere on the street, and leaves places it does not cover to the gazetteer", async () => {
    const geocoder = getGeocoder();
    expect(await geocoder.geocode("99999 W Pine Rd, Springfield")).toMatchObject({ precision: "street", source: "centre_gis" });
    expect(await geocoder.geocode("West Pine Road, Springfield")).toMatchObject({ precision: "street", source: "centre_gis" });
    // Miami Beach is not in the centre's data: its Collins Avenue is not one of ours.
    expect(await geocoder.geocode("2200 Oak Ave, Miami Beach")).toMatchObject({ source: "gazetteer", precision: "locality" });
    expect(await geocoder.geocode("Mission District, San Francisco")).toMatchObject({ source: "gazetteer", precision: "locality" });
  });

  it("refuses a bad file naming the line and field, and keeps the previous data", async () => {
    const before = await layerCounts();
    const csv = [
      "Add_Number,St_Name,St_PosTyp,Post_Comm,lon,lat",
      "100,Test,St,Springfield,-89.6,39.7",
      "102,Test,St,Springfield,-89.6,39.7",
      "1o4,Test,St,Springfield,-89.6,39.7",
    ].join("\n");
    await expect(importGisLayer({ format: "csv", chunks: fromText(csv), sourceName: "bad.csv" })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
      message: expect.stringMatching(/^line 4, field Add_Number: "1o4" is not a whole number/),
    });
    const geojson = JSON.stringify({
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { FromAddr_L: 1, ToAddr_L: 99, St_Name: "Test" }, geometry: { type: "LineString", coordinates: [[-89.6, 39.7], [-89.61, 39.7]] } },
        { type: "Feature", properties: { FromAddr_L: 1, ToAddr_L: 99, St_Name: "Test" }, geometry: { type: "LineString", coordinates: [[-89.6, 39.7], [-189.61, 39.7]] } },
      ],
    });
    await expect(importGisLayer({ format: "geojson", chunks: fromText(geojson), sourceName: "bad.geojson" })).rejects.toMatchObject({
      message: expect.stringMatching(/^feature 1, field geometry: -189.61 is not a coordinate/),
    });
    await expect(importGisLayer({ format: "geojson", chunks: fromText('{"type":"FeatureCollection","features":[{"type":"Feat'), sourceName: "cut.geojson" }))
      .rejects.toMatchObject({ code: "INVALID_PARAMETER" });
    expect(await layerCounts()).toEqual(before);
    expect(await getGeocoder().geocode(spoken[0].text)).toMatchObject({ source: "centre_gis", precision: spoken[0].precision });
  });

  it("reads OpenAddresses CSV; a re-import replaces the layer whole", async () => {
    const openAddresses = [
      "LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE",
      "-89.7,39.9,12B,North Quarry Road,,Springfield,,IL,62701",
      "-89.7001,39.9,14,N Quarry Rd,2,Springfield,,IL,62701",
    ].join("\n");
    expect(await importGisLayer({ format: "csv", chunks: fromText(openAddresses), sourceName: "oa.csv" })).toEqual({ layer: "address_points", features: 2 });
    expect(await getGeocoder().geocode("12 north quarry road, springfield")).toMatchObject({ precision: "address_point", latitude: 39.9, longitude: -89.7 });
    expect(await getGeocoder().geocode("14 Quarry Rd apt 2, Springfield")).toMatchObject({ precision: "address_point", longitude: -89.7001 });
    // The town's address points are gone; its centrelines still place the number.
    expect(await getGeocoder().geocode(spoken[0].text)).toMatchObject({ precision: "interpolated" });
    await importFixtures();
  });

  it("reads FlatGeobuf as it streams in: the town's centrelines place what GeoJSON placed; a bad or cut file changes nothing", async () => {
    const centrelines = JSON.parse(readFileSync(fixture("centrelines.geojson"), "utf8"));
    const fgb = serialize(centrelines);
    // Streamed in small pieces, as an upload arrives.
    const pieces = (bytes: Uint8Array) => Readable.from(Array.from({ length: Math.ceil(bytes.length / 997) }, (_, at) => bytes.subarray(at * 997, (at + 1) * 997)));
    expect(await importGisLayer({ format: "flatgeobuf", chunks: pieces(fgb), sourceName: "centrelines.fgb" })).toEqual({ layer: "centrelines", features: centrelines.features.length });
    const points = serialize({
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { Add_Number: 12, AddNum_Suf: "B", St_PreDir: "N", St_Name: "Quarry", St_PosTyp: "Rd", Post_Comm: "Springfield" }, geometry: { type: "Point", coordinates: [-89.7, 39.9] } },
        { type: "Feature", properties: { Add_Number: 14, St_PreDir: "N", St_Name: "Quarry", St_PosTyp: "Rd", Post_Comm: "Springfield" }, geometry: { type: "Point", coordinates: [-89.7001, 39.9] } },
      ],
    });
    expect(await importGisLayer({ format: "flatgeobuf", chunks: pieces(points), sourceName: "points.fgb" })).toEqual({ layer: "address_points", features: 2 });
    expect(await getGeocoder().geocode("14 north quarry road, springfield")).toMatchObject({ precision: "address_point", latitude: 39.9, longitude: -89.7001 });
    // The town's address points are gone; its centrelines, read from FlatGeobuf, still place the number.
    expect(await getGeocoder().geocode(spoken[0].text)).toMatchObject({ source: "centre_gis", precision: "interpolated" });

    const before = await layerCounts();
    const badPoint = serialize({
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { Add_Number: 1, St_Name: "Test" }, geometry: { type: "Point", coordinates: [-89.6, 39.7] } },
        { type: "Feature", properties: { Add_Number: 2, St_Name: "Test" }, geometry: { type: "Point", coordinates: [-189.6, 39.7] } },
      ],
    });
    await expect(importGisLayer({ format: "flatgeobuf", chunks: pieces(badPoint), sourceName: "bad.fgb" })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
      message: expect.stringMatching(/^feature 1, field geometry: -189.6 is not a coordinate/),
    });
    await expect(importGisLayer({ format: "flatgeobuf", chunks: fromText("Add_Number,St_Name\n1,Test\n"), sourceName: "not.fgb" })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
      message: expect.stringMatching(/^file: not a readable FlatGeobuf file/),
    });
    await expect(importGisLayer({ format: "flatgeobuf", chunks: pieces(fgb.subarray(0, Math.floor(fgb.length * 0.6))), sourceName: "cut.fgb" })).rejects.toMatchObject({
      code: "INVALID_PARAMETER",
    });
    expect(await layerCounts()).toEqual(before);
    await importFixtures();
  });

  it("refuses a hostile FlatGeobuf file where it breaks, before the flatgeobuf package loops or allocates; nothing changes", async () => {
    const before = await layerCounts();
    const magic = Buffer.from("fgb\x03fgb\x00", "latin1");
    const u32 = (value: number) => Buffer.from(Uint32Array.of(value).buffer);
    const points = serialize({
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { Add_Number: 1, St_Name: "Test" }, geometry: { type: "Point", coordinates: [-89.6, 39.7] } },
        { type: "Feature", properties: { Add_Number: 2, St_Name: "Test" }, geometry: { type: "Point", coordinates: [-89.6, 39.7] } },
      ],
    });
    const headerEnd = 12 + Buffer.from(points).readUInt32LE(8);
    const firstFeatureEnd = headerEnd + 4 + Buffer.from(points).readUInt32LE(headerEnd);
    const polygons = serialize({
      type: "FeatureCollection",
      features: [{ type: "Feature", properties: { Add_Number: 1, St_Name: "Test" }, geometry: { type: "Polygon", coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } }],
    });
    const hostile: [string, Uint8Array, RegExp][] = [
      // The three of issue 50: each held the server's only thread at 100% CPU, SIGTERM included.
      ["the magic bytes alone", magic, /^header: cut short before its length \(byte 8\)/],
      ["a header length of 0x7fffffff", Buffer.concat([magic, u32(0x7fffffff)]), /^header: a length of 2,147,483,647 bytes \(byte 8\); a FlatGeobuf header has 4 to 10,485,760/],
      ["a header length of 100 and 4 bytes", Buffer.concat([magic, u32(100), Buffer.from([1, 2, 3, 4])]), /^header: cut short: 4 of its 100 bytes arrived/],
      // calcTreeSize(0, 16) never ends: an index (node size 16 when unset) over no counted features.
      ["an index over uncounted features", Buffer.concat([magic, u32(4), u32(0)]), /^header: a spatial index \(node size 16\) over an uncounted set of features/],
      ["a feature length of 0x7fffffff", Buffer.concat([points.subarray(0, headerEnd), u32(0x7fffffff)]), /^feature 0: a length of 2,147,483,647 bytes/],
      ["a file cut between two features", points.subarray(0, firstFeatureEnd), /^file: its header counts 2 features and 1 arrived/],
      ["a layer of polygons", polygons, /^header: its layer's geometry is Polygon/],
    ];
    for (const [what, bytes, message] of hostile) {
      await expect(importGisLayer({ format: "flatgeobuf", chunks: Readable.from([bytes]), sourceName: "hostile.fgb" }), what).rejects.toMatchObject({
        code: "INVALID_PARAMETER",
        message: expect.stringMatching(message),
      });
    }
    expect(await layerCounts()).toEqual(before);
  });

  it("reads a FlatGeobuf file with a spatial index, as ogr2ogr writes by default, passing over the index as it streams", async () => {
    const count = 300;
    const plain = Buffer.from(serialize({
      type: "FeatureCollection",
      features: Array.from({ length: count }, (_, i) => ({ type: "Feature", properties: { Add_Number: i + 1, St_Name: "Test" }, geometry: { type: "Point", coordinates: [-89.6, 39.7] } })),
    }));
    // The package's writer sets no index (node size 0): the header says 16, and the index's bytes follow it.
    // The header is a FlatBuffers table after the magic bytes and its length; index_node_size is its field 9 (vtable slot 22).
    const table = 12 + plain.readUInt32LE(12);
    const indexed = Buffer.from(plain);
    indexed.writeUInt16LE(16, table + plain.readUInt16LE(table - plain.readInt32LE(table) + 22));
    const headerEnd = 12 + plain.readUInt32LE(8);
    const file = Buffer.concat([indexed.subarray(0, headerEnd), Buffer.alloc(calcTreeSize(count, 16)), indexed.subarray(headerEnd)]);
    const pieces = Readable.from(Array.from({ length: Math.ceil(file.length / 997) }, (_, at) => file.subarray(at * 997, (at + 1) * 997)));
    expect(await importGisLayer({ format: "flatgeobuf", chunks: pieces, sourceName: "indexed.fgb" })).toEqual({ layer: "address_points", features: count });
    await importFixtures();
  });

  describe("POST /api/gis (the administrator's page)", () => {
    const post = (body: BodyInit, type: string, query = "", headers: Record<string, string> = {}) =>
      importRoute(apiRequest(`http://localhost/api/gis${query}`, { method: "POST", body, headers: { "content-type": type, ...headers }, duplex: "half" } as RequestInit));

    it("replaces a layer from an upload and lists the layers", async () => {
      const file = readFileSync(fixture("centrelines.geojson"));
      const response = await post(file, "application/geo+json", "?name=centrelines.geojson");
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ layer: "centrelines", features: JSON.parse(file.toString()).features.length });
      const listed = await (await layersRoute(apiRequest("http://localhost/api/gis"))).json();
      expect(listed.layers).toContainEqual(expect.objectContaining({ layer: "centrelines", source_name: "centrelines.geojson" }));
      const db = await getDb();
      const [audit] = await db.$queryRaw<{ target_id: string }[]>`SELECT target_id FROM audit_events WHERE action = 'gis.imported' ORDER BY id DESC LIMIT 1`;
      expect(audit).toEqual({ target_id: "centrelines" });
    });

    it("answers 400 naming the feature and field, 415 for another format, 403 for a dispatcher; nothing changes", async () => {
      const before = await layerCounts();
      const bad = await post("Add_Number,St_Name,lon,lat\n1,Test,-89.6,39.7\n2,,-89.6,39.7\n", "text/csv", "?layer=address_points");
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: expect.stringContaining("line 3, field St_Name: missing") });
      expect((await post("<kml/>", "application/vnd.google-earth.kml+xml")).status).toBe(415);
      const dispatcher = await signedIn("dispatcher");
      const refused = await post("Add_Number,St_Name,lon,lat\n1,Test,-89.6,39.7\n", "text/csv", "", { cookie: dispatcher.cookie, "sec-fetch-site": "same-origin" });
      expect(refused.status).toBe(403);
      expect(await layerCounts()).toEqual(before);
    });

    it("refuses a body that stops short, before its Content-Length or broken off, whole: nothing changes", async () => {
      const before = await layerCounts();
      const csv = readFileSync(fixture("address-points.csv"));
      // Cut at a line's end: what arrives is a valid, shorter file, as Next's proxy once made of a large one.
      const cut = csv.subarray(0, csv.lastIndexOf("\n", csv.length / 2) + 1);
      const short = await post(cut, "text/csv", "", { "content-length": String(csv.length) });
      expect(short.status).toBe(400);
      expect(await short.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: `The request body ended after ${cut.length} of the ${csv.length} bytes its Content-Length declares` });
      const breaking = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(cut);
          controller.error(new Error("the client went away"));
        },
      });
      const broken = await post(breaking, "text/csv");
      expect(broken.status).toBe(400);
      expect(await broken.json()).toMatchObject({ error_code: "INVALID_PARAMETER", message: expect.stringMatching(/^The request body broke off after \d+ bytes/) });
      expect(await layerCounts()).toEqual(before);
    });

    it("never answers 5xx for a NUL or odd characters in a CSV cell or a GeoJSON property: 200, or 400 naming the line or feature and field", async () => {
      const odd = fc.string({ unit: fc.constantFrom("\u0000", "\ud800", "\udfff", "\ufffd", "\u2028", "\u0001", "\u007f", "\ufeff", '"', ",", ";", "\n", "\r", "\t", " ", "a", "Z", "1", "é", "漢", "😀"), maxLength: 12 });
      // A byte-order mark is dropped from every cell before it is read (lib/geocoding/centre/fields.ts).
      const read = (text: string) => text.replaceAll("\ufeff", "");
      const unstorable = (text: string) => read(text).includes("\u0000") || !read(text).isWellFormed();
      const cell = (text: string) => `"${text.replaceAll('"', '""')}"`;
      /** What the import must answer: the street (required) is read before the unit; text PostgreSQL refuses names its field. */
      const expectAnswer = async (response: Response, street: string, unit: string, where: "line" | "feature") => {
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        const refusal = !read(street).trim()
          ? "field St_Name: missing"
          : unstorable(street)
            ? "field St_Name: contains a character that cannot be stored"
            : unstorable(unit)
              ? "field Unit: contains a character that cannot be stored"
              : undefined;
        if (!refusal) return expect(response.status, text).toBe(200);
        expect(response.status, text).toBe(400);
        expect(JSON.parse(text), text).toMatchObject({ error_code: "INVALID_PARAMETER", message: expect.stringMatching(new RegExp(`^${where} \\d+, ${refusal}`)) });
      };
      await fc.assert(
        fc.asyncProperty(odd, odd, fc.uint8Array({ maxLength: 8 }), async (street, unit, raw) => {
          setRateLimiterForTests(new MemoryRateLimiter());
          // The second row's street holds bytes that are not UTF-8: read as U+FFFD, stored, never a 5xx.
          const rest = Buffer.from(raw.filter((byte) => byte !== 0x22 && byte !== 0));
          const body = Buffer.concat([Buffer.from(`Add_Number,St_Name,Unit,lon,lat\n1,${cell(street)},${cell(unit)},-89.6,39.7\n2,"Elm`), rest, Buffer.from('",,-89.6,39.7\n')]);
          // A lone surrogate has no UTF-8 form: sent as U+FFFD.
          const sent = (text: string) => Buffer.from(text).toString();
          await expectAnswer(await post(body, "text/csv", "?layer=address_points"), sent(street), sent(unit), "line");
        }),
        { numRuns: 25 },
      );
      await fc.assert(
        fc.asyncProperty(odd, odd, odd, async (street, unit, key) => {
          setRateLimiterForTests(new MemoryRateLimiter());
          // A property the import does not read is never stored, whatever it holds.
          const feature = { type: "Feature", properties: { Add_Number: 1, St_Name: street, Unit: unit, [`x${key}`]: key }, geometry: { type: "Point", coordinates: [-89.6, 39.7] } };
          const body = JSON.stringify({ type: "FeatureCollection", features: [feature] });
          await expectAnswer(await post(body, "application/geo+json", "?layer=address_points"), street, unit, "feature");
        }),
        // Two escaped lone surrogates around a byte-order mark: with the mark dropped they are one pair.
        { numRuns: 25, examples: [["\ud800\ufeff\udfff", "", ""], ["\ufeff", "a", ""]] },
      );
      await importFixtures();
    }, 120_000);
  });
});
