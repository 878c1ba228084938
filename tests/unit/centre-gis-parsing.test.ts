import { Readable } from "node:stream";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/domain-error";
import { addressTokens, numberInWords, saidAddresses } from "@/lib/geocoding/centre/address-text";
import { addressPointRow, type AddressPointRow, centrelineRow, featureFields } from "@/lib/geocoding/centre/fields";
import { geocodeWithCentreIndex } from "@/lib/geocoding/centre/geocode";
import { CentreIndex } from "@/lib/geocoding/centre/centre-index";
import { type GisFormat, readFeatures } from "@/lib/geocoding/centre/read";
import { spokenStreet, standardStreet, streetLabel } from "@/lib/geocoding/centre/usps";
import { STREET_LEVEL } from "@/lib/geocoding/types";
import { numberSaid } from "../support/address-forms";
import { random } from "../support/calls";

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

describe("the forms of issue 53, on data of their own", () => {
  const base = { addNumPre: null, addNumSuf: null, stPreDir: null, stPreTyp: null, stPosTyp: null, stPosDir: null, unit: null };
  const point = (fields: Partial<AddressPointRow> & Pick<AddressPointRow, "addNumber" | "stName" | "community" | "postCode" | "state" | "longitude" | "latitude">): AddressPointRow => ({ ...base, ...fields });
  let index: CentreIndex;
  beforeAll(async () => {
    const rows = [
      point({ addNumber: 2677, stName: "Gross Point", stPosTyp: "Road", community: "Evanston", postCode: "60201", state: "IL", longitude: -87.72, latitude: 42.06 }),
      point({ addNumber: 224, stName: "Gross Point", stPosTyp: "Road", community: "Evanston", postCode: "60201", state: "IL", longitude: -87.721, latitude: 42.061 }),
      point({ addNumber: 1, stPreDir: "S", stName: "Dearborn", stPosTyp: "St", community: "Chicago", postCode: "60603", state: "IL", longitude: -87.63, latitude: 41.88 }),
      point({ addNumber: 111, stPreDir: "W", stName: "Washington", stPosTyp: "St", community: "Chicago", postCode: "60602", state: "IL", longitude: -87.631, latitude: 41.883 }),
      point({ addNumber: 1800, stName: "M", stPosTyp: "St", stPosDir: "NW", community: "Washington", postCode: "20036", state: "DC", longitude: -77.04, latitude: 38.905 }),
      point({ addNumber: 1800, stName: "M", stPosTyp: "St", stPosDir: "SE", community: "Washington", postCode: "20003", state: "DC", longitude: -76.99, latitude: 38.876 }),
      point({ addNumber: 900, stName: "Cummings", stPosTyp: "Center", unit: "Suite 307V", community: "Beverly", postCode: "01915", state: "MA", longitude: -70.88, latitude: 42.56 }),
      point({ addNumber: 900, stName: "Cummings", stPosTyp: "Center", unit: "Suite 100", community: "Beverly", postCode: "01915", state: "MA", longitude: -70.881, latitude: 42.561 }),
      point({ addNumber: 500, stPreTyp: "US Highway", stName: "19", community: "Clearwater", postCode: "33755", state: "FL", longitude: -82.74, latitude: 27.97 }),
      point({ addNumber: 1234, stPreTyp: "County Road", stName: "60E", community: "Clearwater", postCode: "33755", state: "FL", longitude: -82.75, latitude: 27.98 }),
      point({ addNumber: 605, stPreTyp: "State Road", stName: "7", community: "Clearwater", postCode: "33755", state: "FL", longitude: -82.76, latitude: 27.99 }),
      point({ addNumber: 9762, addNumPre: "W156N", stName: "Pilgrim", stPosTyp: "Rd", community: "Clearwater", postCode: "33755", state: "FL", longitude: -82.77, latitude: 27.96 }),
      point({ addNumber: 210, addNumPre: "94-", stName: "Pupukahi", stPosTyp: "St", community: "Clearwater", postCode: "33755", state: "FL", longitude: -82.78, latitude: 27.95 }),
      point({ addNumber: 210, addNumPre: "95-", stName: "Pupukahi", stPosTyp: "St", community: "Clearwater", postCode: "33755", state: "FL", longitude: -82.79, latitude: 27.94 }),
      point({ addNumber: 2200, stName: "Oak Park", stPosTyp: "Ave", community: "Oak Park", postCode: "60302", state: "IL", longitude: -87.79, latitude: 41.88 }),
      point({ addNumber: 123, addNumSuf: "1/2", stName: "Main", stPosTyp: "St", community: "Oak Park", postCode: "60302", state: "IL", longitude: -87.8, latitude: 41.89 }),
      point({ addNumber: 123, stName: "Main", stPosTyp: "St", community: "Oak Park", postCode: "60302", state: "IL", longitude: -87.8001, latitude: 41.8901 }),
    ];
    index = await CentreIndex.build(rows, rows.length, []);
  });
  const at = (text: string) => {
    const found = geocodeWithCentreIndex(index, text);
    return found && { precision: found.precision, longitude: found.longitude, latitude: found.latitude };
  };

  it.each([
    ["I'm at 2677 Gross Point Road in Evanston", -87.72],
    ["2677 gross point rd evanston il 60201", -87.72],
    ["I'm at twenty-six seventy-seven Gross Point Road, Evanston", -87.72],
    ["two twenty-four Gross Point Road", -87.721],
    ["One S. Dearborn, Chicago", -87.63],
    ["111 W Washington, Chicago", -87.631],
    ["1800 M Street, NW, Washington, DC", -77.04],
    ["1800 M St SE Washington DC 20003", -76.99],
    ["900 Cummings Center, Ste. 307V, Beverly, MA 1915", -70.88],
    ["900 Cummings Ctr #100 Beverly Massachusetts 01915-1234", -70.881],
    ["500 us 19 clearwater fl", -82.74],
    ["500 U.S. Highway 19, Clearwater, Florida, USA", -82.74],
    ["1234 County Hwy 60E", -82.75],
    ["six oh five SR 7 Clearwater", -82.76],
    ["605 State Route 7, Clearwater, FL 33755", -82.76],
    ["W156N9762 Pilgrim Rd", -82.77],
    ["95-210 Pupukahi St", -82.79],
    ["Sunrise Bakery 2200 Oak Park Ave Oak Park IL 60302", -87.79],
    ["123½ Main St, Oak Park", -87.8],
    ["123 Main St, Oak Park", -87.8001],
    ["twenty-two hundred Oak Park Avenue", -87.79],
  ])("%s", (text, longitude) => {
    expect(at(text)).toMatchObject({ precision: "address_point", longitude });
  });

  it("leaves an address of a state the data does not hold, or of a number no street has, to the next geocoder", () => {
    expect(at("2677 Gross Point Road, Austin, TX 78701")).toBeNull();
    expect(at("2678 Gross Point Road in Skokie")).toBeNull();
    expect(at("1800 M Street, Springfield")).toBeNull();
    // Two streets of one name both have the number: the street, not a guessed house.
    expect(at("1800 M Street, Washington, DC")).toMatchObject({ precision: "street" });
  });

  it("reads a house number said in words back to the number", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer(), (number, seed) => {
        const next = random(seed);
        expect(numberInWords(addressTokens(numberSaid(number, next)))).toBe(number);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("a long text", () => {
  it("is read for its first few house numbers only", () => {
    const text = `${Array.from({ length: 400 }, (_, k) => `${k + 1} Oak`).join(" ")} 102 N Main St`;
    expect(saidAddresses(text, () => false).length).toBeLessThanOrEqual(8);
    expect(saidAddresses("Acme 7 Eleven, 102 N Main St", () => false).map((said) => said.number)).toEqual([7, 102]);
  });
});
