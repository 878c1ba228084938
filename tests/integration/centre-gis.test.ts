import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { serialize } from "flatgeobuf/lib/mjs/geojson.js";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as layersRoute, POST as importRoute } from "@/app/api/gis/route";
import { getDb } from "@/lib/db/client";
import { distanceMeters } from "@/lib/geocoding/centre/geometry";
import { importGisLayer, listGisLayers } from "@/lib/geocoding/centre/import";
import { getGeocoder } from "@/lib/geocoding/geocoder";
import { STREET_LEVEL } from "@/lib/geocoding/types";
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
  });
});
