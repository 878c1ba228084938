import { describe, expect, it } from "vitest";
import { lookupGazetteer } from "@/lib/geocoding/gazetteer";
import { SCENARIOS } from "@/lib/scenarios/scenario-list";

describe("embedded gazetteer", () => {
  it.each([
    ["Mission District, San Francisco", "Mission District, CA", "locality"],
    ["the Palisades", "Pacific Palisades, CA", "locality"],
    ["SF", "San Francisco, CA", "locality"],
    ["Downtown LA", "Los Angeles, CA", "locality"],
    ["Brentwood", "Brentwood, CA", "locality"],
    ["Brentwood, TN", "Brentwood, TN", "locality"],
    ["Germantown, MD", "Germantown, MD", "locality"],
    ["Baton Rouge, LA", "Baton Rouge, LA", "locality"],
    ["Houston TX", "Houston, TX", "locality"],
    ["Oakland, California", "Oakland, CA", "locality"],
    ["Hollywood, CA", "Hollywood, CA", "locality"],
    ["90210", "90210 Beverly Hills, CA", "postal_code"],
    ["123 Main St, Springfield, IL 62701", "62701 Springfield, IL", "postal_code"],
  ])("places %s at %s (%s)", async (text, label, precision) => {
    expect(await lookupGazetteer(text)).toMatchObject({ label, precision, source: "gazetteer" });
  });

  it("picks the larger place for an ambiguous bare town name", async () => {
    expect(await lookupGazetteer("Springfield")).toMatchObject({ label: "Springfield, IL" });
  });

  it.each(["my home near the park", "742 Evergreen Terrace", "", "   ", "Malibu, Texas"])(
    "finds nothing for %j rather than guessing",
    async (text) => {
      expect(await lookupGazetteer(text)).toBeNull();
    },
  );

  it.each(SCENARIOS.flatMap((scenario) => scenario.areas.map((area) => [area.name, area.center] as const)))(
    "places every scenario area, %s, at its scenario centre",
    async (name, center) => {
      expect(await lookupGazetteer(name)).toMatchObject({
        latitude: center.lat,
        longitude: center.lon,
        precision: "locality",
        label: expect.stringMatching(new RegExp(`^${name}, [A-Z]{2}$`)),
      });
    },
  );
});
