import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PMTiles, type Source } from "pmtiles";
import { labelRules, type Feature, PmtilesSource } from "protomaps-leaflet";
import { namedFlavor } from "@protomaps/basemaps";
import { allowedLabelRules, streetMapLabelAllowed } from "@/components/map/street-map-labels";
import { contentSecurityPolicy } from "@/lib/http/security-headers";
import { STREET_MAP_TILE, streetMapArchive, tileOf } from "../support/street-map-archive";

/** The street map's names (docs/dashboard.md, "Tiles"): populated places, streets and water only. */
const feature = (props: Record<string, string | number>) => ({ props }) as unknown as Feature;

describe("street map labels", () => {
  it("names populated places, streets and water; never a ZIP code's, a post office's or a point of interest's name", () => {
    expect(streetMapLabelAllowed("places", { kind: "locality", kind_detail: "town", name: "Alameda" })).toBe(true);
    expect(streetMapLabelAllowed("places", { kind: "neighbourhood", name: "Wynwood" })).toBe(true);
    expect(streetMapLabelAllowed("roads", { kind: "major_road", name: "Collins Avenue" })).toBe(true);
    expect(streetMapLabelAllowed("water", { kind: "ocean", name: "Atlantic Ocean" })).toBe(true);
    expect(streetMapLabelAllowed("places", { kind: "postal_code", name: "Naval Supply Center" })).toBe(false);
    expect(streetMapLabelAllowed("places", { kind: "locality", kind_detail: "post_office", name: "First Union Bank" })).toBe(false);
    expect(streetMapLabelAllowed("pois", { kind: "post_office", name: "Naval Supply Center" })).toBe(false);
  });

  it("keeps the theme's place, street and water rules, each admitting only those names", () => {
    const theme = labelRules(namedFlavor("dark"), "en");
    const rules = allowedLabelRules(theme);
    expect(new Set(rules.map((rule) => rule.dataLayer))).toEqual(new Set(["places", "roads", "water"]));
    const places = rules.filter((rule) => rule.dataLayer === "places");
    // A town passes the rule the theme has for towns; a ZIP code's name passes none.
    expect(places.some((rule) => rule.filter!(12, feature({ kind: "locality", name: "Alameda", min_zoom: 1, population_rank: 9 })))).toBe(true);
    expect(places.some((rule) => rule.filter!(12, feature({ kind: "postal_code", name: "Naval Supply Center", min_zoom: 1, population_rank: 9 })))).toBe(false);
  });
});

describe("the street map's archive in the content security policy", () => {
  it("lets the page read a remote archive, and adds nothing for one on this site", () => {
    expect(contentSecurityPolicy("offline", false, "https://maps.example.org/county.pmtiles")).toContain("connect-src 'self' https://maps.example.org;");
    expect(contentSecurityPolicy("offline", false, "/maps/county.pmtiles")).toContain("connect-src 'self';");
  });
});

describe("the street map fixture (tests/fixtures/street-map)", () => {
  const bytes = readFileSync("tests/fixtures/street-map/miami-beach.pmtiles");
  /** The archive read as the browser reads it, by ranges, from memory. */
  const source: Source = {
    getKey: () => "miami-beach.pmtiles",
    getBytes: async (offset, length) => ({ data: Uint8Array.from(bytes.subarray(offset, offset + length)).buffer }),
  };

  it("is what its generator writes, byte for byte", () => {
    expect(bytes.equals(streetMapArchive())).toBe(true);
  });

  it("is a PMTiles archive protomaps-leaflet reads, whose names the street map keeps to a town, streets and water", async () => {
    const archive = new PMTiles(source);
    expect(await archive.getHeader()).toMatchObject({ specVersion: 3, minZoom: 14, maxZoom: 14, tileType: 1 });
    expect(await archive.getMetadata()).toMatchObject({ attribution: "Synthetic test data" });
    const { x, y } = tileOf(STREET_MAP_TILE.z, STREET_MAP_TILE.lat, STREET_MAP_TILE.lon);
    const layers = await new PmtilesSource(archive, false).get({ z: STREET_MAP_TILE.z, x, y }, 256);
    expect([...layers.keys()].sort()).toEqual(["earth", "places", "pois", "roads", "water"]);
    const named = [...layers.entries()].flatMap(([dataLayer, features]) =>
      features.filter((candidate) => streetMapLabelAllowed(dataLayer, candidate.props)).map((candidate) => String(candidate.props.name ?? "")),
    );
    expect(named.filter(Boolean).sort()).toEqual(["Atlantic Ocean", "Collins Avenue", "Lincoln Road", "Miami Beach"]);
  });
});
