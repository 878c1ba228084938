import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookupHosted } from "@/lib/geocoding/hosted";
import { sendJson, startStandInServer, type StandInServer } from "../support/stand-in-server";

/**
 * The hosted geocoders report precision (docs/geocoding.md, "Hosted geocoders"): Nominatim from its
 * result's rank, class and type, Pelias from its feature's layer, match_type and accuracy. Each is
 * a local stand-in answering what the real service answers for such a place.
 */
let answer: unknown;
let server: StandInServer;
beforeAll(async () => {
  server = await startStandInServer((_request, response) => sendJson(response, 200, answer));
});
afterAll(() => server.close());

const options = () => ({ baseUrl: server.url, timeoutMs: 2_000 });

describe("Nominatim", () => {
  it.each([
    [{ place_rank: 30, category: "building", type: "yes", osm_type: "way" }, "address_point"],
    [{ place_rank: 30, category: "place", type: "house", osm_type: "node" }, "address_point"],
    [{ place_rank: 30, category: "place", type: "house", osm_type: "way" }, "interpolated"],
    [{ place_rank: 26, category: "highway", type: "residential" }, "street"],
    [{ place_rank: 21, category: "place", type: "postcode" }, "postal_code"],
    [{ place_rank: 20, category: "place", type: "suburb" }, "locality"],
    [{ place_rank: 16, category: "place", type: "city" }, "locality"],
    [{ place_rank: 8, category: "boundary", type: "administrative" }, "region"],
  ])("maps %j to %s, source nominatim", async (fields, precision) => {
    answer = [{ lat: "25.79", lon: "-80.13", display_name: "somewhere", ...fields }];
    const result = await lookupHosted("somewhere", { kind: "nominatim", ...options() });
    expect(result).toMatchObject({ latitude: 25.79, longitude: -80.13, precision, source: "nominatim" });
    expect(server.requests.at(-1)!.url.pathname).toBe("/search");
  });
});

const feature = (properties: Record<string, unknown>) => ({
  type: "FeatureCollection",
  features: [{ type: "Feature", geometry: { type: "Point", coordinates: [-86.7844, 36.1659] }, properties: { label: "a place", ...properties } }],
});

describe("Pelias", () => {
  it.each([
    [{ layer: "address", match_type: "exact", accuracy: "point" }, "address_point", 10],
    [{ layer: "address", match_type: "interpolated", accuracy: "point" }, "interpolated", 30],
    [{ layer: "intersection", match_type: "exact", accuracy: "point" }, "intersection", 50],
    [{ layer: "street", match_type: "fallback", accuracy: "centroid" }, "street", 500],
    [{ layer: "postalcode", match_type: "fallback", accuracy: "centroid" }, "postal_code", 3000],
    [{ layer: "neighbourhood", match_type: "fallback", accuracy: "centroid" }, "locality", 3000],
    [{ layer: "locality", match_type: "fallback", accuracy: "centroid" }, "locality", 3000],
    [{ layer: "region", match_type: "fallback", accuracy: "centroid" }, "region", 50_000],
  ])("maps %j to %s, source pelias", async (properties, precision, uncertaintyMeters) => {
    answer = feature(properties);
    const result = await lookupHosted("16th Ave S and Division St, Nashville", { kind: "pelias", ...options() });
    expect(result).toEqual({ latitude: 36.1659, longitude: -86.7844, precision, uncertaintyMeters, source: "pelias", label: "a place" });
    const request = server.requests.at(-1)!;
    expect(request.url.pathname).toBe("/v1/search");
    expect(request.url.searchParams.get("text")).toBe("16th Ave S and Division St, Nashville");
  });

  it("knows nothing when Pelias has no feature, and is unavailable when it answers something else", async () => {
    answer = { type: "FeatureCollection", features: [] };
    expect(await lookupHosted("nowhere", { kind: "pelias", ...options() })).toBeNull();
    answer = { error: "nope" };
    await expect(lookupHosted("nowhere", { kind: "pelias", ...options() })).rejects.toThrow(/unknown format/);
  });
});
