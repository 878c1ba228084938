import { describe, expect, it } from "vitest";
import { normaliseEmergencyType, normaliseSeverity } from "@/lib/calls/handed-over";
import { civicAddressOf } from "@/lib/eido/civic";
import { addressTokens, saidAddresses } from "@/lib/geocoding/centre/address-text";
import { DEFAULT_ROAD_SPEED_KMH, roadSpeedKmh } from "@/lib/geocoding/centre/road-network";
import { segmentsOf } from "@/lib/geocoding/text";
import { SEVERITIES } from "@/lib/vocabulary";

/**
 * The names every JavaScript object answers to. Said by a caller or written in a GIS file, each is
 * a word like any other: the tables the words are looked up in must not answer with Object's own
 * functions (fast-check found "0 > St, constructor" giving an EIDO state that was a function).
 */
const OBJECT_WORDS = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "isPrototypeOf", "toLocaleString"];

describe("words that name Object's own properties", () => {
  it.each(OBJECT_WORDS)("%s is only a word to the civic address, the address reader and the state reader", (word) => {
    for (const spoken of [`0 > St, ${word}`, `12 ${word} St, Springfield, ${word}`, `${word} ${word}`]) {
      for (const value of Object.values(civicAddressOf(spoken))) expect(typeof value).toBe("string");
      for (const segment of segmentsOf(spoken)) expect(segment.state === undefined || typeof segment.state === "string").toBe(true);
      for (const token of addressTokens(spoken)) expect(typeof token).toBe("string");
      for (const said of saidAddresses(`${word} ${word} street`, () => false)) {
        for (const value of Object.values(said)) expect(typeof value === "function").toBe(false);
      }
    }
  });

  it.each(OBJECT_WORDS)("%s as a RoadClass is a local street's speed; as an agent's severity or type, the fallback", (word) => {
    expect(roadSpeedKmh({ roadClass: word, speedLimit: null })).toBe(DEFAULT_ROAD_SPEED_KMH);
    expect(SEVERITIES).toContain(normaliseSeverity(word));
    expect(typeof normaliseEmergencyType(word)).toBe("string");
  });
});
