import fc from "fast-check";
import { sign as retellSign, verify as retellVerify } from "retell-sdk";
import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { retell } from "@/lib/voice-platforms/retell/adapter";
import { retellSignatureHeader } from "@/lib/voice-platforms/retell/signature";
import { vapi } from "@/lib/voice-platforms/vapi/adapter";
import { vapiHmacHeaders } from "@/lib/voice-platforms/vapi/signature";

/**
 * The platforms' signatures as their own code makes them: Retell's against retell-sdk's
 * `verify`/`sign` (the construction its documentation points to), Vapi's HMAC credential with its
 * documented defaults. No network: the SDK's functions are pure.
 */

const KEY = "key_unit_retell_0123456789";
const config = parseConfig({ RETELL_API_KEY: KEY, VAPI_WEBHOOK_SECRET: "vapi_unit_secret" });
const body = fc.oneof(fc.string({ unit: "grapheme", maxLength: 300 }), fc.json());

/** Runs an adapter's check over `raw`: true when it passes, false for 401. */
function passes(adapter: typeof retell, headers: Record<string, string>, raw: string, nowMs = Date.now()): boolean {
  try {
    const check = adapter.startCheck(new Headers(headers), config, nowMs);
    check.update(Buffer.from(raw));
    check.verify();
    return true;
  } catch (error) {
    expect(error).toMatchObject({ code: "INVALID_SIGNATURE" });
    return false;
  }
}

describe("Retell signatures", () => {
  it("what Mayday's signer makes, retell-sdk verifies; what retell-sdk signs, the adapter accepts", async () => {
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        expect(await retellVerify(raw, KEY, retellSignatureHeader(KEY, raw))).toBe(true);
        expect(passes(retell, { "x-retell-signature": await retellSign(raw, KEY) }, raw)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses an SDK signature over another body, with another key, or older than 5 minutes", async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.string({ minLength: 1, maxLength: 20 }), async (raw, other) => {
        expect(passes(retell, { "x-retell-signature": await retellSign(raw + other, KEY) }, raw)).toBe(false);
        expect(passes(retell, { "x-retell-signature": await retellSign(raw, `${KEY}${other}`) }, raw)).toBe(false);
        expect(passes(retell, { "x-retell-signature": await retellSign(raw, KEY) }, raw, Date.now() + 5 * 60_000 + 1_000)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe("Vapi credentials", () => {
  it("an HMAC of `<timestamp>.<body>` passes within 5 minutes, in seconds or milliseconds, and fails for another body", () => {
    fc.assert(
      fc.property(body, fc.string({ minLength: 1, maxLength: 20 }), (raw, other) => {
        const now = Date.now();
        expect(passes(vapi, vapiHmacHeaders("vapi_unit_secret", raw, now), raw, now + 60_000)).toBe(true);
        const seconds = Math.floor(now / 1000);
        const signedInSeconds = vapiHmacHeaders("vapi_unit_secret", raw, seconds);
        expect(passes(vapi, signedInSeconds, raw, now)).toBe(true);
        expect(passes(vapi, { ...signedInSeconds, "x-signature": `sha256=${signedInSeconds["x-signature"]}` }, raw, now)).toBe(true);
        expect(passes(vapi, vapiHmacHeaders("vapi_unit_secret", raw + other, now), raw, now)).toBe(false);
        expect(passes(vapi, vapiHmacHeaders("vapi_unit_secret", raw, now - 6 * 60_000), raw, now)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
