import { describe, expect, it } from "vitest";
import { encodePlaceIndex, PlaceIndex, sourceVersions } from "@/lib/geocoding/place-index-file";
import { placesFromSources } from "@/lib/geocoding/place-sources";
import { getPlaceIndex } from "@/lib/geocoding/places";

describe("place index", () => {
  it("answers exactly what the source packages say, for every name and every ZIP", async () => {
    const [source, index] = await Promise.all([placesFromSources(), getPlaceIndex()]);
    expect(source.byName.size).toBeGreaterThan(10_000);
    const names = [...source.byName.keys()];
    expect(names.map((name) => index.placesNamed(name))).toEqual(names.map((name) => source.byName.get(name)));
    const zips = [...source.byZip.keys()];
    expect(zips.map((zip) => index.zip(zip))).toEqual(zips.map((zip) => source.byZip.get(zip)));
  }, 60_000);

  it.each(["", "springfiel", "springfield x", "zzzz", "0"])("knows no place named %j", async (name) => {
    expect((await getPlaceIndex()).placesNamed(name)).toEqual([]);
  });

  it.each(["00000", "99999", "9021", "902100", "abcde"])("knows no ZIP %j", async (zip) => {
    expect((await getPlaceIndex()).zip(zip)).toBeUndefined();
  });

  it("refuses a file made from other package versions, or of another format", async () => {
    const sources = sourceVersions();
    const bytes = encodePlaceIndex({ byName: new Map([["a", [{ name: "A", state: "CA", latitude: 1, longitude: 2, zipCount: 0, populated: true }]]]), byZip: new Map() }, sources);
    expect(PlaceIndex.decode(bytes, sources)).toBeInstanceOf(PlaceIndex);
    expect(PlaceIndex.decode(bytes, { ...sources, zipcodes: "0.0.1" })).toMatch(/zipcodes/);
    expect(PlaceIndex.decode(Buffer.from("{}"), sources)).toBe("not a place index");
    expect(PlaceIndex.decode(bytes.subarray(0, bytes.length - 1), sources)).toBe("truncated");
  });
});
