import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { CentreIndex } from "@/lib/geocoding/centre/centre-index";
import { geocodeWithCentreIndex } from "@/lib/geocoding/centre/geocode";
import { distanceMeters } from "@/lib/geocoding/centre/geometry";
import { ADDRESS_CATEGORIES, ADDRESS_FORMS, type AddressCase, UNKNOWN_TOWN } from "../support/address-forms";
import { fixtureIndex, GIS_FIXTURES } from "../support/gis-fixture-index";

/**
 * Issue 53's acceptance on the project's own test set (tests/fixtures/gis/address-forms.json,
 * docs/geocoding.md "Test data"): every kind of address in the forms people say and write them.
 */
const cases: AddressCase[] = JSON.parse(readFileSync(path.join(GIS_FIXTURES, "address-forms.json"), "utf8"));

let index: CentreIndex;
beforeAll(async () => {
  index = await fixtureIndex();
}, 60_000);

const metresFrom = (found: { longitude: number; latitude: number } | null, item: AddressCase) =>
  found ? distanceMeters({ lon: found.longitude, lat: found.latitude }, { lon: item.longitude, lat: item.latitude }) : Infinity;

describe("addresses as people say and write them", () => {
  it("holds at least 1,000 addresses of every kind, each in at least four forms", () => {
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(cases.map((item) => item.category))).toEqual(new Set(ADDRESS_CATEGORIES));
    for (const item of cases) expect(Object.keys(item.forms).length).toBeGreaterThanOrEqual(4);
    for (const form of ADDRESS_FORMS) expect(cases.some((item) => item.forms[form])).toBe(true);
  });

  it("places at least 95% of each kind in each form within 30 m at the right precision, never at another house number", () => {
    const misses: string[] = [];
    const rates: string[] = [];
    for (const category of ADDRESS_CATEGORIES) {
      for (const form of ADDRESS_FORMS) {
        const said = cases.filter((item) => item.category === category && item.forms[form]);
        if (said.length === 0) continue;
        let right = 0;
        for (const item of said) {
          const found = geocodeWithCentreIndex(index, item.forms[form]!);
          if (found && found.precision === item.precision && metresFrom(found, item) <= 30) right++;
          else misses.push(`${category}/${form}: ${item.forms[form]} -> ${found?.precision ?? "nothing"} ${found?.label ?? ""}`);
          // An answer at a house is at the house said: its label starts with the number said.
          if (found?.precision === "address_point" || found?.precision === "interpolated") expect(found.label.toUpperCase().startsWith(`${item.parts.number.toUpperCase()} `), found.label).toBe(true);
        }
        rates.push(`${category}/${form}: ${right}/${said.length}`);
        expect(right / said.length, `${rates.at(-1)}\n${misses.slice(-5).join("\n")}`).toBeGreaterThanOrEqual(0.95);
      }
    }
  });

  it("leaves an address to the next geocoder when its street and number are the data's in more than one community and the town is unknown", () => {
    const numbered = cases.find((item) => item.category === "plain" && /^[NS] \d+(st|nd|rd|th) St$/.test(item.parts.street))!;
    expect(geocodeWithCentreIndex(index, `${item(numbered)}, ${UNKNOWN_TOWN}`)).toBeNull();
    expect(geocodeWithCentreIndex(index, `${item(numbered)}, ${numbered.parts.community}`)).toMatchObject({ precision: numbered.precision });
  });

  it("resolves an address to the same point with its unit, commas, case, \"in\", state, ZIP and country arranged in any usual way", () => {
    const zipForms = (zip: string) => [zip, `${zip}-4321`, `${zip}4321`, ...(zip.startsWith("0") ? [zip.slice(1)] : [])];
    const arrangement = fc.record({
      item: fc.constantFrom(...cases.filter((item) => item.category !== "interpolated" || !item.parts.unit)),
      lead: fc.constantFrom("", "I'm at ", "we are at ", "Acme Hardware, ", "Jo Smith "),
      unit: fc.constantFrom("Apt ", "apt. ", "Unit ", "Ste ", "Suite ", "#", "# ", "Rm ", "Bldg ", "Fl "),
      unitComma: fc.boolean(),
      town: fc.constantFrom(", ", " ", " in ", ", in "),
      state: fc.constantFrom("", " IL", ", IL", " Illinois", ", illinois", " il"),
      zip: fc.nat(3),
      country: fc.constantFrom("", ", USA", " USA", ", United States"),
      casing: fc.constantFrom("as is", "lower", "upper"),
    });
    fc.assert(
      fc.property(arrangement, ({ item: said, lead, unit, unitComma, town, state, zip, country, casing }) => {
        const { number, street, community } = said.parts;
        const zips = zipForms(said.parts.zip);
        const unitText = said.parts.unit ? `${unitComma ? "," : ""} ${unit}${said.parts.unit}` : "";
        let text = `${lead}${number} ${street}${unitText}${town}${community}${state}${state || zip % 2 ? ` ${zips[zip % zips.length]}` : ""}${country}`;
        text = casing === "lower" ? text.toLowerCase() : casing === "upper" ? text.toUpperCase() : text;
        const expected = geocodeWithCentreIndex(index, said.forms.written!);
        const found = geocodeWithCentreIndex(index, text);
        expect(found, text).not.toBeNull();
        expect({ latitude: found!.latitude, longitude: found!.longitude }, text).toEqual({ latitude: expected!.latitude, longitude: expected!.longitude });
      }),
      { numRuns: 1500 },
    );
  });
});

const item = (said: AddressCase) => `${said.parts.number} ${said.parts.street}`;
