import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { CentreIndex } from "@/lib/geocoding/centre/centre-index";
import { streetsNotInCentreIndex } from "@/lib/geocoding/centre/geocode";
import { fixtureIndex } from "../support/gis-fixture-index";

/**
 * The streets a correction names that the centre's GIS lacks, in a community it covers
 * (docs/calls.md, "Corrections"), on the synthetic county: every street the county has, numbered
 * or crossed, in any case, is never reported; a made-up street in a county town always is, by
 * name; a place without a street, or a town the county does not cover, asks nothing.
 */
let index: CentreIndex;
beforeAll(async () => {
  index = await fixtureIndex();
}, 60_000);

const title = (words: string) => words.replace(/\b\w/g, (letter) => letter.toUpperCase());

describe("streetsNotInCentreIndex", () => {
  it("names the street a county town lacks, and asks nothing of a place without a street or outside the county", () => {
    expect(streetsNotInCentreIndex(index, "Main St and 5th St, Springfield")).toEqual({ community: "springfield", streets: ["Main St"] });
    expect(streetsNotInCentreIndex(index, "I'm at Main Street and Fifth Street in Springfield")).toEqual({ community: "springfield", streets: ["Main St"] });
    expect(streetsNotInCentreIndex(index, "123 Foo Avenue, Springfield, IL")).toEqual({ community: "springfield", streets: ["Foo Ave"] });
    for (const text of ["downtown, Springfield", "Springfield", "Springfield, IL", "123 Main St", "Collins Ave, Miami Beach", "Main St and 5th St, Miami Beach", "5th St and Elm Ln, Springfield"]) {
      expect(streetsNotInCentreIndex(index, text), text).toBeUndefined();
    }
  });

  it("never reports a street the county has in its town, numbered or crossed, in any case", () => {
    const streets = index.streets.filter((street) => street.community !== "");
    fc.assert(
      fc.property(fc.nat(streets.length - 1), fc.nat(streets.length - 1), fc.integer({ min: 1, max: 9999 }), fc.boolean(), (a, b, number, lower) => {
        const first = streets[a];
        const second = streets.find((street, i) => i >= b && street.community === first.community) ?? first;
        const [firstName, town] = first.label.split(", ");
        const secondName = second.label.split(", ")[0];
        const cased = (text: string) => (lower ? text.toLowerCase() : text);
        expect(streetsNotInCentreIndex(index, cased(`${number} ${firstName}, ${town}`))).toBeUndefined();
        expect(streetsNotInCentreIndex(index, cased(`${firstName} and ${secondName}, ${town}`))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it("always reports a made-up street in a county town, by its name", () => {
    const towns = [...index.communities];
    fc.assert(
      fc.property(fc.stringMatching(/^[zqxj]{8,12}$/), fc.constantFrom(...towns), fc.constantFrom("St", "Avenue", "Rd"), fc.boolean(), (name, town, type, crossed) => {
        const street = `${title(name)} ${type}`;
        const text = crossed ? `${street} and 5th St, ${title(town)}` : `12 ${street} in ${title(town)}`;
        const missing = streetsNotInCentreIndex(index, text);
        expect(missing?.community).toBe(town);
        expect(missing?.streets[0]).toBe(`${title(name)} ${type === "Avenue" ? "Ave" : type}`);
      }),
      { numRuns: 200 },
    );
  });
});
