import { Readable } from "node:stream";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/domain-error";
import { addressPointRow, centrelineRow, featureFields } from "@/lib/geocoding/centre/fields";
import { geocodeWithCentreIndex } from "@/lib/geocoding/centre/geocode";
import { CentreIndex } from "@/lib/geocoding/centre/centre-index";
import { type GisFormat, readFeatures } from "@/lib/geocoding/centre/read";
import { spokenStreet, standardStreet, streetLabel } from "@/lib/geocoding/centre/usps";
import { STREET_LEVEL } from "@/lib/geocoding/types";

const refusedClearly = (error: unknown) => error instanceof DomainError && error.code === "INVALID_PARAMETER";

const anyValue = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.constant(null), fc.constant(undefined));
const anyRecord = fc.dictionary(
  fc.constantFrom("Add_Number", "St_Name", "St_PreDir", "St_PosTyp", "Unit", "lon", "lat", "FromAddr_L", "ToAddr_L", "Parity_L", "WKT", "NUMBER", "STREET", "LON", "LAT", "x"),
  anyValue,
);

async function drain(format: GisFormat, text: string) {
  for await (const feature of readFeatures(format, Readable.from([Buffer.from(text)]))) {
    expect(feature.where).toMatch(/^(line|feature) \d+$/);
  }
}

describe("what a GIS file may hold", () => {
  it("a feature becomes a checked row, or a 400 that names where it is", () => {
    fc.assert(
      fc.property(anyRecord, fc.option(fc.record({ type: fc.constantFrom("Point", "LineString"), coordinates: fc.anything() }), { nil: undefined }), (record, geometry) => {
        for (const toRow of [addressPointRow, centrelineRow]) {
          try {
            const row = toRow({ where: "feature 7", fields: featureFields(record), geometry });
            expect(row.stName.length).toBeGreaterThan(0);
            if ("addNumber" in row) {
              expect(Number.isInteger(row.addNumber) && row.addNumber >= 0).toBe(true);
              expect(Math.abs(row.longitude) <= 180 && Math.abs(row.latitude) <= 90).toBe(true);
            } else {
              expect(row.coordinates.length).toBeGreaterThanOrEqual(4);
              expect(row.coordinates.every(Number.isFinite)).toBe(true);
            }
          } catch (error) {
            expect(refusedClearly(error), String(error)).toBe(true);
            expect((error as Error).message).toMatch(/^feature 7, field \S+: .+; nothing was imported$/);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("any bytes as CSV or GeoJSON are read, or refused with a 400, never another error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<GisFormat>("csv", "geojson"), fc.oneof(fc.string(), fc.json()), async (format, text) => {
        try {
          await drain(format, text);
        } catch (error) {
          expect(refusedClearly(error), String(error)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("what a caller may say", () => {
  const row = { addNumPre: null, addNumSuf: null, stPreTyp: null, stPosDir: null, unit: null, community: "Springfield", postCode: "62701", state: "IL" };
  let index: CentreIndex;
  beforeAll(async () => {
    index = await CentreIndex.build(
      [
        { ...row, addNumber: 100, stPreDir: "N", stName: "Main", stPosTyp: "St", longitude: -89.65, latitude: 39.78 },
        { ...row, addNumber: 102, stPreDir: "N", stName: "Main", stPosTyp: "St", longitude: -89.6501, latitude: 39.7801 },
      ],
      2,
      [
        { ...row, stPreDir: null, stName: "Oak", stPosTyp: "Ave", fromAddrL: 1, toAddrL: 99, fromAddrR: 2, toAddrR: 98, parityL: "O", parityR: "E", coordinates: [-89.65, 39.78, -89.64, 39.78] },
        { ...row, stPreDir: "N", stName: "Main", stPosTyp: "St", fromAddrL: 101, toAddrL: 199, fromAddrR: 100, toAddrR: 198, parityL: "O", parityR: "E", coordinates: [-89.65, 39.78, -89.65, 39.79] },
      ],
    );
  });

  it("any text is answered street level from the data, or left to the next geocoder, never an error", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9]{1,6} [NSEW ]{0,2}(Main|Oak|Maim|Oka)( St| Ave| Stret)?(, [a-z ]{0,12})?$/)), (text) => {
        const found = geocodeWithCentreIndex(index, text);
        if (found) {
          expect(found.source).toBe("centre_gis");
          expect(STREET_LEVEL).toContain(found.precision);
          expect(Math.abs(found.longitude + 89.645)).toBeLessThan(0.02);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("a street written as its label reads back to the same NENA parts", () => {
    const word = fc.stringMatching(/^[a-z]{5,9}$/).filter((name) => spokenStreet(`x ${name}`).postType === "" && spokenStreet(`${name} x`).preDir === "");
    fc.assert(
      fc.property(fc.constantFrom("", "N", "South", "e", "NW"), fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom("", "Avenue", "st", "Blvd", "Terrace"), (direction, words, type) => {
        const parts = standardStreet({ preDir: direction, name: words.join(" "), postType: type });
        expect(spokenStreet(streetLabel(parts))).toEqual(parts);
      }),
      { numRuns: 500 },
    );
  });
});
