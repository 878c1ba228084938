import { describe, expect, it } from "vitest";
import { centrelineRow, featureFields } from "@/lib/geocoding/centre/fields";
import { fromLocal } from "@/lib/geocoding/centre/geometry";
import { DEFAULT_ROAD_SPEED_KMH, RoadNetworkBuilder, roadSpeedKmh } from "@/lib/geocoding/centre/road-network";

/**
 * The road network's rules without a database (docs/units.md, "Travel time on the roads"): the
 * road fields as the import reads them, speeds by SpeedLimit or RoadClass, and times on a small
 * square of streets worked by hand.
 */

const line = (properties: Record<string, unknown>) =>
  centrelineRow({ where: "feature 3", fields: featureFields({ St_Name: "Oak", ...properties }), geometry: { type: "LineString", coordinates: [[-89.6, 39.6], [-89.59, 39.6]] } });

describe("road fields", () => {
  it("reads RoadClass, SpeedLimit (mph) and OneWay, and refuses a value outside them naming the feature and field", () => {
    expect(line({ RoadClass: "Primary", SpeedLimit: 55, OneWay: "ft" })).toMatchObject({ roadClass: "Primary", speedLimit: 55, oneWay: "FT" });
    expect(line({})).toMatchObject({ roadClass: null, speedLimit: null, oneWay: null });
    expect(line({ SpeedLimit: 0 }).speedLimit).toBeNull();
    expect(() => line({ OneWay: "N" })).toThrow(/^feature 3, field OneWay: "N" is not B, FT or TF; nothing was imported$/);
    expect(() => line({ SpeedLimit: 500 })).toThrow(/^feature 3, field SpeedLimit: 500 is not a speed limit in miles per hour \(0 to 100\)/);
    expect(() => line({ SpeedLimit: "fast" })).toThrow(/field SpeedLimit: "fast" is not a whole number/);
  });

  it("takes the posted limit, else the class's speed, and leaves out what no vehicle drives", () => {
    expect(roadSpeedKmh({ roadClass: "Local", speedLimit: 30 })).toBeCloseTo(48.28, 2);
    expect(roadSpeedKmh({ roadClass: "primary", speedLimit: null })).toBe(80);
    expect(roadSpeedKmh({ roadClass: null, speedLimit: null })).toBe(DEFAULT_ROAD_SPEED_KMH);
    expect(roadSpeedKmh({ roadClass: "Boulevard of dreams", speedLimit: null })).toBe(DEFAULT_ROAD_SPEED_KMH);
    expect(roadSpeedKmh({ roadClass: "Walkway", speedLimit: 30 })).toBeNull();
  });
});

describe("travel times", () => {
  const origin = { lon: -89.6, lat: 39.6 };
  const at = (east: number, north: number) => fromLocal(origin, east, north);
  /** A 1 km square of Local streets (40 km/h), its south side one way eastward. */
  function square(northSide: "TF" | null = null) {
    const builder = new RoadNetworkBuilder();
    const corners = [at(0, 0), at(1000, 0), at(1000, 1000), at(0, 1000)];
    corners.forEach((from, i) => {
      const to = corners[(i + 1) % 4];
      builder.add({ ...line({}), coordinates: [from.lon, from.lat, to.lon, to.lat], roadClass: "Local", speedLimit: null, oneWay: i === 0 ? "FT" : i === 2 ? northSide : null });
    });
    // Walking at 15 km/h would never be chosen over the roads: a footpath across the middle.
    builder.add({ ...line({}), coordinates: [at(0, 500).lon, at(0, 500).lat, at(1000, 500).lon, at(1000, 500).lat], roadClass: "Walkway", speedLimit: null, oneWay: null });
    return builder.build()!;
  }

  it("goes the way one-way streets run, and not over a footpath", () => {
    const network = square();
    expect(network.segmentCount).toBe(4);
    // To (500, 0) on the one-way south side: from (200, 0) straight along it (300 m); from (800, 0)
    // round the three other sides and along from the corner: 200 + 1000 + 1000 + 1000 + 500 = 3,700 m.
    const [behind, ahead, off] = network.travelTimes(at(500, 0), [at(200, 0), at(800, 0), at(500, 3000)]);
    const speed = DEFAULT_ROAD_SPEED_KMH / 3.6;
    expect(behind!.metres).toBeCloseTo(300, 0);
    expect(behind!.seconds).toBeCloseTo(300 / speed, 1);
    expect(ahead!.metres).toBeCloseTo(3700, -1);
    expect(ahead!.seconds).toBeCloseTo(3700 / speed, 0);
    // 2 km from every road: off the network.
    expect(off).toBeNull();
  });

  it("reads TF against the line's digitising, and finds no road where one-way streets lead nowhere", () => {
    // The north side runs from (1000, 1000) to (0, 1000): TF lets vehicles go east only.
    const [fromWest, fromEast] = square("TF").travelTimes(at(500, 1000), [at(200, 1000), at(800, 1000)]);
    expect(fromWest!.metres).toBeCloseTo(300, 0);
    // From (800, 1000) east to the corner, south, and then the south side runs east only: no way back west.
    expect(fromEast).toBeNull();
  });

  it("counts the way from a point to its road at the off-road speed", () => {
    const [travel] = square().travelTimes(at(0, 500), [at(50, 600)]);
    // 50 m to the west side (at 15 km/h: 12 s), then 100 m south on it.
    expect(travel!.metres).toBeCloseTo(150, 0);
    expect(travel!.seconds).toBeCloseTo(50 / (15 / 3.6) + 100 / (DEFAULT_ROAD_SPEED_KMH / 3.6), 1);
  });

  it("answers no road time for anyone when the incident is off the roads", () => {
    expect(square().travelTimes(at(5000, 5000), [at(0, 0), null])).toEqual([null, null]);
  });
});
