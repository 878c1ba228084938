import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callbackUri, pidfLo } from "@/lib/eido/build";
import { civicAddressOf } from "@/lib/eido/civic";
import { APCO_INCIDENT_TYPES, INCIDENT_STATUSES, incidentTypeCode, LOCATION_TYPES, AGENCY_ROLE } from "@/lib/eido/registry";
import { EMERGENCY_TYPES, STATUSES } from "@/lib/vocabulary";
import { nenaRegistries } from "../support/nena-registries";

/** The EIDO's values from outside input: call-back URIs, civic addresses, and the registry table (docs/integrations.md, "EIDO"). */

describe("EIDO registry values", () => {
  it("maps every emergency type and status into NENA's registries, and an unknown type to TROUBLE", () => {
    for (const type of EMERGENCY_TYPES) expect(nenaRegistries.incidentTypeCommon, type).toContain(APCO_INCIDENT_TYPES[type]);
    for (const status of STATUSES) expect(nenaRegistries.incidentStatusCommon, status).toContain(INCIDENT_STATUSES[status]);
    expect(nenaRegistries.incidentTypeCommon).toContain(incidentTypeCode("unknown"));
    for (const type of Object.values(LOCATION_TYPES)) expect(nenaRegistries.locationType).toContain(type);
    expect(nenaRegistries.agencyRole).toContain(AGENCY_ROLE);
  });
});

describe("call-back URIs", () => {
  it.each([
    ["+1 (615) 555-0101", "tel:+16155550101"],
    ["+442071838750", "tel:+442071838750"],
    ["4711", "tel:4711;phone-context=psap.example.org"],
    // A UK national number is no NANP number: local digits, not +1.
    ["0207946095", "tel:0207946095;phone-context=psap.example.org"],
    ["(615) 555-0142", "tel:+16155550142"],
    ["(615) 555-0142 ext 12", "tel:+16155550142;ext=12"],
    ["+16155550142 x7", "tel:+16155550142;ext=7"],
    ["sip:caller@carrier.example", "sip:caller@carrier.example"],
    ["anonymous", undefined],
    ["Anonymous Caller", undefined],
    ["tel:", undefined],
    ["", undefined],
    [null, undefined],
  ])("%s gives %s", (phone, uri) => {
    expect(callbackUri(phone, "psap.example.org")).toBe(uri);
  });

  it("never gives a URI without something to call (fast-check)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\+?[\d ()-]{0,20}$/), fc.constantFrom("anonymous", "sip:", "sip:@", "unknown")), (phone) => {
        const uri = callbackUri(phone, "psap.example.org");
        if (uri === undefined) return;
        expect(URL.canParse(uri)).toBe(true);
        if (uri.startsWith("tel:")) expect(uri.replace(/;phone-context=.*$/, "").replace(/\D/g, "").length).toBeGreaterThanOrEqual(3);
        else expect(uri).toMatch(/^sips?:[^\s@]+@[^\s@]+$/i);
      }),
    );
  });
});

describe("PIDF-LO civic address", () => {
  it.each([
    ["1200 Sunset Blvd, Pacific Palisades", { HNO: "1200", RD: "Sunset", STS: "Boulevard", A3: "Pacific Palisades" }],
    ["400 Lakeshore Dr, Nashville, TN 37201", { HNO: "400", RD: "Lakeshore", STS: "Drive", A3: "Nashville", A1: "TN", country: "US", PC: "37201" }],
    ["Main Street, Nashville TN", { RD: "Main", STS: "Street", A3: "Nashville", A1: "TN", country: "US" }],
    ["Mission District, San Francisco", { A3: "San Francisco" }],
    ["near the old mill", { A3: "near the old mill" }],
    ["", {}],
  ])("%s", (spoken, civic) => {
    expect(civicAddressOf(spoken)).toEqual(civic);
  });

  it("keeps every element a part of what was said, and the XML well escaped, whatever the words (fast-check)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\d{1,5} [A-Za-z<&"> ]{1,20} (St|Ave|Blvd)\.?(, [A-Za-z&<> ]{1,20})?(, (TN|California) \d{5})?$/)), (spoken) => {
        const civic = civicAddressOf(spoken);
        // Runs of spaces read as one.
        for (const name of ["HNO", "RD", "A3"] as const) {
          if (civic[name] !== undefined) {
            expect(civic[name]!.trim()).toBe(civic[name]);
            expect(civic[name]!.length).toBeGreaterThan(0);
            expect(spoken.replace(/\s+/g, " ")).toContain(civic[name]);
          }
        }
        if (civic.A1 !== undefined) expect(civic.country).toBe("US");
        const xml = pidfLo("urn:emergency:uid:incidentid:1:psap.example.org", spoken, {
          latitude: 36.16,
          longitude: -86.78,
          precision: "locality",
          uncertaintyMeters: 3000,
          source: "gazetteer",
        });
        // Without its tags, the document holds text only: every < and > escaped, every & an entity.
        const text = xml.replace(/<\/?[A-Za-z][\w:.-]*(\s+[\w:.-]+="[^"<>]*")*\s*\/?>/g, "");
        expect(text).not.toMatch(/[<>]/);
        expect(text).not.toMatch(/&(?!(amp|lt|gt|quot);)/);
        expect(xml).toContain("<gp:usage-rules>");
        // IANA method tokens: the civic address was said (Manual), the point looked up (Derived); one tuple each.
        expect(xml).toContain("<gp:method>Manual</gp:method>");
        expect(xml).toContain("<gp:method>Derived</gp:method>");
        expect(xml.match(/<tuple id="(\w+)">/g)).toEqual(['<tuple id="geodetic">', '<tuple id="civic">']);
      }),
    );
  });
});
