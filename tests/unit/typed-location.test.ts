import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { CentreIndex } from "@/lib/geocoding/centre/centre-index";
import { centreCandidates, readTypedLocation, TYPED_TEXT_LIMIT } from "@/lib/geocoding/centre/candidates";
import { distanceMeters } from "@/lib/geocoding/centre/geometry";
import { normalise } from "@/lib/geocoding/text";
import { fixtureIndex, GIS_FIXTURES } from "../support/gis-fixture-index";

/**
 * The query parser of GET /api/locations (lib/geocoding/centre/candidates.ts readTypedLocation) and
 * the candidates it leads to, as properties over any text a person may type (fast-check), on the
 * synthetic county (tests/fixtures/gis).
 */
const word = fc.stringMatching(/^[a-z]{1,9}$/);
const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(" "));

describe("readTypedLocation", () => {
  it("reads any text without throwing, its parts bounded and normalised", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const typed = readTypedLocation(text);
        expect(typed.streets.length).toBeLessThanOrEqual(2);
        for (const street of typed.streets) {
          expect(street).not.toBe("");
          expect(normalise(street)).toBe(street);
          expect(street.split(" ").length).toBeLessThanOrEqual(8);
        }
        if (typed.place !== undefined) expect(normalise(typed.place)).toBe(typed.place);
        if (typed.number !== undefined) expect(Number.isInteger(typed.number) && typed.number >= 0).toBe(true);
        // Only the first TYPED_TEXT_LIMIT characters count.
        expect(readTypedLocation(text + "x".repeat(500))).toEqual(readTypedLocation((text + "x".repeat(500)).slice(0, TYPED_TEXT_LIMIT)));
      }),
    );
  });

  it("takes a leading number as the house number and the words after it as one street", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999 }), words, fc.boolean(), (number, street, trailing) => {
        const typed = readTypedLocation(`${number} ${street}${trailing ? " " : ""}`);
        expect(typed).toEqual({ number, streets: [street], place: undefined, open: !trailing });
      }),
    );
  });

  it("reads \"X and Y\" (and &, @, /) as a crossing of two streets, and the words after a comma as the place", () => {
    fc.assert(
      fc.property(words, fc.constantFrom("and", "&", "@", "/"), words, fc.option(words, { nil: undefined }), (first, joiner, second, place) => {
        // Words the reader takes for something else: "at", "on", "near", "by" before a place, a crossing's joiner inside a part.
        fc.pre(!/^(?:at|on|near|by|corner) /.test(`${first} `) && ![first, second].some((part) => / (?:and|at) /.test(` ${part} `)));
        const typed = readTypedLocation(`${first} ${joiner} ${second}${place ? `, ${place}` : ""}`);
        expect(typed).toEqual({ streets: [first, second], place, open: true });
      }),
    );
  });

  it("marks the last word unfinished unless a space or comma follows it", () => {
    fc.assert(
      fc.property(words, fc.constantFrom("", " ", ",", "  "), (text, end) => {
        expect(readTypedLocation(text + end).open).toBe(end === "");
      }),
    );
  });
});

describe("centreCandidates", () => {
  let index: CentreIndex;
  beforeAll(async () => {
    index = await fixtureIndex();
  });

  it("answers at most the limit, each candidate a street-level place of the centre's GIS, most exact first", () => {
    const rank = ["address_point", "interpolated", "intersection", "street"];
    const typedSoFar = fc.constantFrom("372 north eighth street", "125 S 2nd St, Springfield", "cedar and fourth", "W Elm Ln & 3rd St", "hillcrest").chain((text) =>
      fc.integer({ min: 3, max: text.length }).map((length) => text.slice(0, length)));
    fc.assert(
      fc.property(fc.oneof(typedSoFar, fc.string({ maxLength: 60 })), fc.integer({ min: 1, max: 20 }), (text, limit) => {
        const found = centreCandidates(index, text, limit);
        expect(found.length).toBeLessThanOrEqual(limit);
        const ranks = found.map((result) => rank.indexOf(result.precision));
        expect(ranks.every((value) => value >= 0)).toBe(true);
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        for (const result of found) expect(result.source).toBe("centre_gis");
      }),
    );
  });

  it("answers every written and spoken form of the fixture's address points (units, numbers in words, words around) with its point first", () => {
    const cases = readFileSync(path.join(GIS_FIXTURES, "address-forms.json"), "utf8").split("\n").filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line.replace(/,$/, "")) as { forms: Record<string, string>; latitude: number; longitude: number; precision: string });
    const missed: string[] = [];
    let forms = 0;
    for (const { forms: written, latitude, longitude, precision } of cases) {
      if (precision !== "address_point") continue;
      // "unknown_town" names a town the GIS does not cover: someone else's address.
      for (const [form, text] of Object.entries(written).filter(([form]) => form !== "unknown_town")) {
        forms++;
        const [first] = centreCandidates(index, text, 8);
        const there = first?.precision === "address_point" && distanceMeters({ lon: first.longitude, lat: first.latitude }, { lon: longitude, lat: latitude }) <= 30;
        if (!there) missed.push(`${form}: ${text} -> ${first?.label}`);
      }
    }
    expect(forms).toBeGreaterThan(3_000);
    expect(missed).toEqual([]);
  });

  it("finds the address point of every prefix of an address typed past its street's first letters", () => {
    const address = "372 north eighth street";
    for (let length = "372 north ei".length; length <= address.length; length++) {
      expect(centreCandidates(index, address.slice(0, length), 8)[0], address.slice(0, length)).toMatchObject({ precision: "address_point", label: "372 N 8th St, Springfield" });
    }
  });
});
