import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

describe("parseConfig", () => {
  it("applies the embedded defaults when nothing is set", () => {
    const config = parseConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR).toBe("./data");
    expect(config.VOICEAGENT_REQUIRE_SIGNATURE).toBe(false);
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
  ])("rejects a malformed %s with a message naming it", (variable, value) => {
    expect(() => parseConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [variable]: value })).toThrow(new RegExp(`^Invalid environment variable ${variable}:`));
  });
});
