import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as areaRoute } from "@/app/api/map/area/route";
import { GET as streetsRoute } from "@/app/api/map/streets/route";
import { getDb } from "@/lib/db/client";
import { importGisLayer } from "@/lib/geocoding/centre/import";
import { pixelDegrees } from "@/lib/geocoding/centre/street-lines";
import { mapAreaSchema, mapStreetsSchema, MAX_ADDRESS_NUMBERS, MAX_STREET_LINES } from "@/lib/geocoding/map-streets-schema";
import { apiRequest } from "../support/auth";

/**
 * The centre's own street map (docs/dashboard.md, "Street map"): GET /api/map/streets over the
 * synthetic county of tests/fixtures/gis, held to the fixture's own lines; GET /api/map/area.
 */
const FIXTURES = path.join(__dirname, "..", "fixtures", "gis");
type Feature = { properties: Record<string, string | number | undefined>; geometry: { coordinates: [number, number][] } };
const centrelines: { features: Feature[] } = JSON.parse(readFileSync(path.join(FIXTURES, "centrelines.geojson"), "utf8"));
const [header, ...points] = readFileSync(path.join(FIXTURES, "address-points.csv"), "utf8").trim().split("\n").map((line) => line.split(","));
/** A point's field by its NENA column name. */
const field = (row: string[], name: string) => row[header.indexOf(name)];

const nameOf = ({ properties: p }: Feature) => [p.St_PreDir, p.St_PreTyp, p.St_Name, p.St_PosTyp, p.St_PosDir].filter(Boolean).join(" ");
type Box = [number, number, number, number];
const meets = (feature: Feature, [west, south, east, north]: Box) => {
  const lons = feature.geometry.coordinates.map(([lon]) => lon);
  const lats = feature.geometry.coordinates.map(([, lat]) => lat);
  return Math.max(...lons) >= west && Math.min(...lons) <= east && Math.max(...lats) >= south && Math.min(...lats) <= north;
};

const read = async (query: string, headers: Record<string, string> = {}) => {
  const response = await streetsRoute(apiRequest(`http://localhost/api/map/streets?${query}`, { headers }), undefined);
  return { response, body: response.status === 200 ? await response.json() : response.status === 304 ? null : await response.json() };
};
const streets = async (bbox: Box, zoom: number) => {
  const { response, body } = await read(`bbox=${bbox.join(",")}&zoom=${zoom}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return mapStreetsSchema.parse(body);
};

/** Springfield's west end: a few blocks of the fixture's first town. */
const SPRINGFIELD: Box = [-89.65, 39.779, -89.64, 39.786];

describe("GET /api/map/streets: the centre's streets from its GIS tables", () => {
  beforeAll(async () => {
    await importGisLayer({ format: "csv", chunks: createReadStream(path.join(FIXTURES, "address-points.csv")) as AsyncIterable<Uint8Array>, sourceName: "address-points.csv" });
    await importGisLayer({ format: "geojson", chunks: createReadStream(path.join(FIXTURES, "centrelines.geojson")) as AsyncIterable<Uint8Array>, sourceName: "centrelines.geojson" });
  }, 120_000);

  it("answers the streets that cross the box, by name, their blocks joined end to end (a straight street: its two ends)", async () => {
    const answer = await streets(SPRINGFIELD, 16);
    const expected = new Set(centrelines.features.filter((feature) => meets(feature, SPRINGFIELD)).map(nameOf));
    expect(expected.size).toBeGreaterThan(5);
    expect(new Set(answer.streets.map((street) => street.name))).toEqual(expected);
    expect(answer.truncated).toBe(false);
    // Joined: fewer lines than the blocks that make them; simplified: straight streets keep their two ends.
    expect(answer.streets.length).toBeLessThan(centrelines.features.filter((feature) => meets(feature, SPRINGFIELD)).length);
    for (const street of answer.streets) expect(street.coordinates.length).toBe(4);
    // Below the house numbers' zoom, none.
    expect(answer.addresses).toEqual([]);
  });

  it("sends house numbers at the closest zooms: the box's address points, one per number and point", async () => {
    const box: Box = [-89.65, 39.779, -89.645, 39.782];
    const answer = await streets(box, 18);
    const inside = points.filter((row) => {
      const [lon, lat] = [Number(row.at(-2)), Number(row.at(-1))];
      return lon >= box[0] && lon <= box[2] && lat >= box[1] && lat <= box[3];
    });
    expect(inside.length).toBeGreaterThan(10);
    const number = (row: string[]) => `${field(row, "AddNum_Pre")}${field(row, "Add_Number")}${field(row, "AddNum_Suf")}`;
    const expected = new Set(inside.map((row) => `${number(row)}@${Number(row.at(-2))},${Number(row.at(-1))}`));
    expect(new Set(answer.addresses.map((point) => `${point.number}@${point.longitude},${point.latitude}`))).toEqual(expected);
    expect(answer.addresses.length).toBe(expected.size);
  });

  it("is bounded: nothing below zoom 13, no box wider than 8192 pixels", async () => {
    expect(await streets([-89.66, 39.77, -89.3, 39.8], 12)).toEqual({ zoom: 12, streets: [], addresses: [], truncated: false });
    const wide = await read("bbox=-89.66,39.77,-89.3,39.8&zoom=16");
    expect(wide.response.status).toBe(400);
    expect(wide.body).toMatchObject({ error: "Invalid bbox", message: expect.stringMatching(/pixels at zoom 16: at most 8192/) });
  });

  it("simplifies per zoom: a winding street keeps its bends close in and becomes its ends far out; a new import is seen at once", async () => {
    // A street wandering 3 m either side of a straight line every 10 m, 400 m long.
    const winding = Array.from({ length: 41 }, (_, i) => [-89.645 + i * 0.000117, 39.7815 + (i % 2 === 0 ? 0 : 0.000027)]);
    const features = [
      ...centrelines.features.map((feature) => JSON.stringify({ type: "Feature", properties: feature.properties, geometry: { type: "LineString", coordinates: feature.geometry.coordinates } })),
      JSON.stringify({ type: "Feature", properties: { St_Name: "Winding", St_PosTyp: "Way", PostComm_L: "Springfield", State_L: "IL" }, geometry: { type: "LineString", coordinates: winding } }),
    ];
    const before = await streets(SPRINGFIELD, 18);
    expect(before.streets.some((street) => street.name === "Winding Way")).toBe(false);
    await importGisLayer({ format: "geojson", chunks: Readable.from([Buffer.from(`{"type":"FeatureCollection","features":[${features.join(",")}]}`)]) as AsyncIterable<Uint8Array>, sourceName: "winding.geojson" });
    const at = async (zoom: number) => (await streets(SPRINGFIELD, zoom)).streets.find((street) => street.name === "Winding Way")!.coordinates;
    // Zoom 18: a pixel is about 0.45 m, every bend stays; zoom 14: 7 m, the 3 m wiggle is inside it.
    expect(pixelDegrees(18, 39.78)).toBeLessThan(0.000027);
    expect(pixelDegrees(14, 39.78)).toBeGreaterThan(0.000027);
    expect(await at(18)).toHaveLength(winding.length * 2);
    expect(await at(14)).toEqual([...winding[0], ...winding.at(-1)!]);
  });

  it("refuses a bad box with 400 and changes nothing", async () => {
    for (const query of [
      "zoom=16", "bbox=&zoom=16", "bbox=-89.65,39.78,-89.64&zoom=16", "bbox=a,b,c,d&zoom=16", "bbox=-89.64,39.78,-89.65,39.79&zoom=16",
      "bbox=-89.65,39.79,-89.64,39.78&zoom=16", "bbox=-190,39.78,-89.64,39.79&zoom=16", "bbox=-89.65,39.78,-89.64,95&zoom=16",
      "bbox=-89.65,39.78,-89.64,39.79", "bbox=-89.65,39.78,-89.64,39.79&zoom=23", "bbox=-89.65,39.78,-89.64,39.79&bbox=-89.65,39.78,-89.64,39.79&zoom=16",
    ]) {
      const { response, body } = await read(query);
      expect(response.status, query).toBe(400);
      expect(body.error_code, query).toBe("INVALID_PARAMETER");
    }
  });

  it("may be kept by the browser, and answers an unchanged box 304 to its ETag", async () => {
    const query = `bbox=${SPRINGFIELD.join(",")}&zoom=16`;
    const first = await read(query);
    expect(first.response.headers.get("cache-control")).toBe("private, max-age=300");
    const etag = first.response.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect((await read(query, { "if-none-match": etag })).response.status).toBe(304);
  });

  it("reads the box's lines through the index on their bounds", async () => {
    const db = await getDb();
    const plan = await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRawUnsafe<Record<string, string>[]>(
        "EXPLAIN SELECT coordinates FROM gis_centrelines WHERE bounds && box(point(-89.65, 39.779), point(-89.64, 39.786))",
      );
    });
    expect(plan.map((row) => Object.values(row)[0]).join("\n")).toContain("gis_centrelines_bounds_idx");
  });
});

describe("GET /api/map/area: the centre's extent and communities", () => {
  it("frames every centreline and address point, and names the county's four towns with their own bounds", async () => {
    const response = await areaRoute(apiRequest("http://localhost/api/map/area"), undefined);
    expect(response.status).toBe(200);
    const area = mapAreaSchema.parse(await response.json());
    const lons = centrelines.features.flatMap((feature) => feature.geometry.coordinates.map(([lon]) => lon));
    const lats = centrelines.features.flatMap((feature) => feature.geometry.coordinates.map(([, lat]) => lat));
    const [west, south, east, north] = area.extent!;
    expect(west).toBeLessThanOrEqual(Math.min(...lons));
    expect(east).toBeGreaterThanOrEqual(Math.max(...lons));
    expect(south).toBeLessThanOrEqual(Math.min(...lats));
    expect(north).toBeGreaterThanOrEqual(Math.max(...lats));
    expect(area.communities.map((community) => community.name)).toEqual(["North Haverbrook", "Ogdenville", "Shelbyville", "Springfield"]);
    // Springfield's own bounds: its centrelines' and address points' (the points lie off the lines).
    const springfield = area.communities.find((community) => community.name === "Springfield")!.bounds;
    const own = [
      ...centrelines.features.filter((feature) => feature.properties.PostComm_L === "Springfield").flatMap((feature) => feature.geometry.coordinates.map(([lon]) => lon)),
      ...points.filter((row) => field(row, "Post_Comm") === "Springfield").map((row) => Number(row.at(-2))),
    ];
    expect([springfield[0], springfield[2]]).toEqual([Math.min(...own), Math.max(...own)]);
  });
});

describe("GET /api/map/streets over more than one answer holds", () => {
  it("answers at most the limits of centrelines and address points, and says it left some out", async () => {
    // 4,100 short lines and 2,100 points in a 200 m square.
    const lines = Array.from({ length: MAX_STREET_LINES + 100 }, (_, i) => {
      const [lon, lat] = [-89.6 + (i % 64) * 0.00003, 39.7 + Math.floor(i / 64) * 0.00003];
      return JSON.stringify({ type: "Feature", properties: { St_Name: `Lane ${i}` }, geometry: { type: "LineString", coordinates: [[lon, lat], [lon + 0.00002, lat]] } });
    });
    const csv = ["Add_Number,St_Name,lon,lat", ...Array.from({ length: MAX_ADDRESS_NUMBERS + 100 }, (_, i) => `${i + 1},Lane,${-89.6 + (i % 46) * 0.00004},${39.7 + Math.floor(i / 46) * 0.00004}`)];
    await importGisLayer({ format: "geojson", chunks: Readable.from([Buffer.from(`{"type":"FeatureCollection","features":[${lines.join(",")}]}`)]) as AsyncIterable<Uint8Array>, sourceName: "dense.geojson" });
    await importGisLayer({ format: "csv", chunks: Readable.from([Buffer.from(csv.join("\n"))]) as AsyncIterable<Uint8Array>, sourceName: "dense.csv" });
    const answer = await streets([-89.601, 39.699, -89.597, 39.703], 18);
    expect(answer.truncated).toBe(true);
    expect(answer.streets).toHaveLength(MAX_STREET_LINES);
    expect(answer.addresses).toHaveLength(MAX_ADDRESS_NUMBERS);
  }, 60_000);
});
