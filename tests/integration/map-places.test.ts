import { apiRequest } from "@/tests/support/auth";
import { describe, expect, it } from "vitest";
import { GET as placesRoute } from "@/app/api/map/places/route";
import { mapPlacesSchema } from "@/lib/geocoding/map-places-schema";
import { getPlaceIndex } from "@/lib/geocoding/places";

const read = async (query: string) => {
  const response = await placesRoute(apiRequest(`http://localhost/api/map/places?${query}`), undefined);
  return { status: response.status, body: await response.json() };
};

const places = async (view: { west: number; south: number; east: number; north: number; zoom: number }) => {
  const { status, body } = await read(new URLSearchParams(Object.entries(view).map(([key, value]) => [key, String(value)])).toString());
  expect(status).toBe(200);
  return mapPlacesSchema.parse(body).places;
};

/** Greater Los Angeles, as a dispatcher's map frames it. */
const LOS_ANGELES = { west: -118.7, south: 33.7, east: -117.9, north: 34.35 };

describe("GET /api/map/places: town names for the offline map", () => {
  it("names the region's towns inside the view, one per label-sized cell, more as the map zooms in", async () => {
    const close = await places({ ...LOS_ANGELES, zoom: 10 });
    const names = close.map((place) => `${place.name}, ${place.state}`);
    expect(names).toEqual(expect.arrayContaining(["Los Angeles, CA", "Pasadena, CA", "Long Beach, CA"]));
    for (const place of close) {
      expect(place.latitude).toBeGreaterThanOrEqual(LOS_ANGELES.south);
      expect(place.latitude).toBeLessThanOrEqual(LOS_ANGELES.north);
      expect(place.longitude).toBeGreaterThanOrEqual(LOS_ANGELES.west);
      expect(place.longitude).toBeLessThanOrEqual(LOS_ANGELES.east);
    }
    // 110 px cells at zoom 10: no two names share one.
    const cell = (360 / (256 * 2 ** 10)) * 110;
    const cells = close.map((place) => `${Math.floor(place.latitude / cell)}:${Math.floor(place.longitude / cell)}`);
    expect(new Set(cells).size).toBe(cells.length);

    const wide = await places({ west: -124, south: 32, east: -114, north: 42, zoom: 6 });
    expect(wide.map((place) => place.name)).toContain("Los Angeles");
    const wideInLosAngeles = wide.filter(
      (place) => place.latitude >= LOS_ANGELES.south && place.latitude <= LOS_ANGELES.north && place.longitude >= LOS_ANGELES.west && place.longitude <= LOS_ANGELES.east,
    );
    expect(wideInLosAngeles.length).toBeLessThan(close.length);
    expect(await places({ ...LOS_ANGELES, zoom: 10 })).toEqual(close);
  });

  it("names nothing below zoom 5, and refuses a view without its bounds", async () => {
    expect(await places({ west: -130, south: 20, east: -60, north: 50, zoom: 4 })).toEqual([]);
    const missing = await read("west=-118&south=33&zoom=9");
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: "Invalid parameter" });
    expect((await read("west=-118&south=33&east=-117&north=34&zoom=40")).status).toBe(400);
  });

  it("names populated places only, never a ZIP code's post office or firm, at any zoom", async () => {
    // Both names are ZIP codes' city names in the offline lists (94625 in Oakland, 33195 in Miami).
    const index = await getPlaceIndex();
    for (const [key, name] of [["naval supply center", "Naval Supply Center"], ["first union bank", "First Union Bank"]]) {
      expect(index.placesNamed(key)).toEqual([expect.objectContaining({ name, populated: false })]);
    }
    const around = (latitude: number, longitude: number) => ({ west: longitude - 0.05, south: latitude - 0.05, east: longitude + 0.05, north: latitude + 0.05 });
    for (const zoom of [8, 11, 14, 17]) {
      const names = [...(await places({ ...around(37.8, -122.31), zoom })), ...(await places({ ...around(25.7729, -80.187), zoom }))].map((place) => place.name);
      expect(names, `zoom ${zoom}`).not.toContain("Naval Supply Center");
      expect(names, `zoom ${zoom}`).not.toContain("First Union Bank");
      if (zoom >= 11) expect(names, `zoom ${zoom}`).toEqual(expect.arrayContaining(["Miami"]));
    }
  });
});
