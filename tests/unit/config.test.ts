import { describe, expect, it } from "vitest";
import { ConfigError, configurationWarnings, parseConfig } from "@/lib/config";

describe("parseConfig", () => {
  it("applies the embedded defaults when nothing is set", () => {
    const config = parseConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe("./data");
    expect(config.VOICEAGENT_REQUIRE_SIGNATURE).toBe(false);
  });

  it("takes a street map as a URL or a path on this site, and the scenario street switch", () => {
    expect(parseConfig({}).MAP_PMTILES_URL).toBeUndefined();
    expect(parseConfig({ MAP_PMTILES_URL: "/maps/county.pmtiles" }).MAP_PMTILES_URL).toBe("/maps/county.pmtiles");
    expect(parseConfig({ MAP_PMTILES_URL: "https://maps.example.org/county.pmtiles" }).MAP_PMTILES_URL).toBe("https://maps.example.org/county.pmtiles");
    expect(parseConfig({}).GEOCODER_SCENARIO_STREETS).toBe(false);
    expect(parseConfig({ GEOCODER_SCENARIO_STREETS: "true" }).GEOCODER_SCENARIO_STREETS).toBe(true);
  });

  it("treats empty strings as unset", () => {
    expect(parseConfig({ DATABASE_URL: "", API_KEY: " " }).API_KEY).toBeUndefined();
  });

  it.each([
    ["DATABASE_URL", "mysql://localhost/db"],
    ["REDIS_URL", "localhost:6379"],
    ["AI_TIMEOUT_MS", "soon"],
    ["VOICEAGENT_REQUIRE_SIGNATURE", "yes"],
    ["GEOCODER_URL", "not a url"],
    ["MAP_PMTILES_URL", "county.pmtiles"],
    ["MAP_PMTILES_URL", "ftp://maps.example.org/county.pmtiles"],
    ["GEOCODER_SCENARIO_STREETS", "maybe"],
  ])("rejects a malformed %s with a message naming it", (variable, value) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [variable]: value })).toThrow(new RegExp(`^Invalid environment variable ${variable}:`));
  });
});

describe("configurationWarnings (logged once at start-up)", () => {
  it("warns when a webhook secret is set but unsigned posts are still accepted", () => {
    const [warning, ...others] = configurationWarnings(parseConfig({ VOICEAGENT_WEBHOOK_SECRET: "s3cret" }));
    expect(others).toEqual([]);
    expect(warning).toMatch(/VOICEAGENT_REQUIRE_SIGNATURE/);
  });

  it("is silent when signatures are required, or when there is no secret to require", () => {
    expect(configurationWarnings(parseConfig({ VOICEAGENT_WEBHOOK_SECRET: "s3cret", VOICEAGENT_REQUIRE_SIGNATURE: "true" }))).toEqual([]);
    expect(configurationWarnings(parseConfig({}))).toEqual([]);
  });
});
