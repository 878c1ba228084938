import { describe, expect, it } from "vitest";
import { distanceMeters } from "@/lib/geocoding/centre/geometry";
import { locateOnScenarioStreets } from "@/lib/geocoding/scenario-streets";
import { SCENARIOS } from "@/lib/scenarios/scenario-list";

/** The scenario street set (docs/simulation.md, "Where generated calls are"). */
describe("the scenario street set", () => {
  it("places every street of every area, numbers 100 to 2999, inside the area's square", () => {
    for (const scenario of SCENARIOS) {
      for (const area of scenario.areas) {
        for (const street of area.streets) {
          for (const number of [100, 101, 1550, 2998, 2999]) {
            const address = `${number} ${street}, ${area.name}`;
            const located = locateOnScenarioStreets(address);
            expect(located, address).toMatchObject({ precision: "interpolated", uncertaintyMeters: 30, source: "generator" });
            expect(Math.abs(located!.latitude - area.center.lat), address).toBeLessThan(0.02);
            expect(Math.abs(located!.longitude - area.center.lon), address).toBeLessThan(0.02);
          }
        }
      }
    }
  });

  it("gives distinct addresses distinct points: 1000 numbers apart is more than a kilometre", () => {
    const here = locateOnScenarioStreets("1200 Collins Avenue, Miami Beach")!;
    const there = locateOnScenarioStreets("2200 Collins Avenue, Miami Beach")!;
    const across = locateOnScenarioStreets("1201 Collins Avenue, Miami Beach")!;
    const point = (result: typeof here) => ({ lat: result.latitude, lon: result.longitude });
    expect(distanceMeters(point(here), point(there))).toBeGreaterThan(1_000);
    // Odd and even numbers face each other across the street.
    expect(distanceMeters(point(here), point(across))).toBeGreaterThan(10);
    expect(distanceMeters(point(here), point(across))).toBeLessThan(30);
  });

  it("resolves the address as callers say it, abbreviated or with a typing error, to the same point", () => {
    const generated = locateOnScenarioStreets("1234 Sunset Boulevard, Pacific Palisades")!;
    for (const spoken of ["1234 sunset blvd, pacific palisades", "I'm at 1234 Sunset Bulevard, Pacific Palisades", "1234 Sunset Blvd Pacific Palisades"]) {
      expect(locateOnScenarioStreets(spoken), spoken).toMatchObject({ latitude: generated.latitude, longitude: generated.longitude });
    }
    // The same street name in another area is another street.
    const brentwood = locateOnScenarioStreets("1234 Sunset Boulevard, Brentwood")!;
    expect(brentwood.longitude).not.toBe(generated.longitude);
  });

  it("answers only an address with a number of the range in a named scenario area", () => {
    for (const text of [
      "1234 Sunset Boulevard",
      "Sunset Boulevard, Pacific Palisades",
      "Sunset Boulevard and Palisades Drive, Pacific Palisades",
      "4000 Sunset Boulevard, Pacific Palisades",
      "1234 Sunset Boulevard, Los Angeles",
      "Pacific Palisades",
    ]) {
      expect(locateOnScenarioStreets(text), text).toBeNull();
    }
  });
});
