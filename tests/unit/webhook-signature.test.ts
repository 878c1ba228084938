import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";
import { signatureHeaderOf, verifySignature } from "@/lib/voice-platforms/elevenlabs/signature";

const secret = "wsec_unit";
const body = Buffer.from('{"type":"post_call_transcription","caf\u00e9":true}');
const now = 1_767_225_600;
const hex = (t: number, bytes: Buffer = body) => createHmac("sha256", secret).update(`${t}.`).update(bytes).digest("hex");
const check = (header: string | null, required = false, bytes = body) => () =>
  verifySignature(header, bytes, { secret, required }, now);

describe("verifySignature", () => {
  it("accepts the platform's header, computed independently over the raw bytes", () => {
    expect(check(`t=${now},v0=${hex(now)}`)).not.toThrow();
    expect(check(` t=${now} , v0=sha256=${hex(now)} `)).not.toThrow();
  });

  it("compares the whole signature: a one-character change fails", () => {
    const signature = hex(now);
    const changed = signature.slice(0, -1) + (signature.endsWith("0") ? "1" : "0");
    expect(check(`t=${now},v0=${changed}`)).toThrow(/does not match/);
    expect(check(`t=${now},v0=${signature.slice(0, 32)}`)).toThrow(/does not match/);
  });

  it("signs the timestamp too: the same signature under another t fails", () => {
    expect(check(`t=${now - 1},v0=${hex(now)}`)).toThrow(/does not match/);
  });

  it("covers the bytes, not a re-encoding of them", () => {
    const latin1 = Buffer.from('{"caf\xe9":true}', "latin1");
    expect(check(`t=${now},v0=${hex(now, latin1)}`, false, latin1)).not.toThrow();
    expect(check(`t=${now},v0=${hex(now, Buffer.from(latin1.toString("utf8")))}`, false, latin1)).toThrow();
  });

  it("enforces the 30-minute age and 5-minute future limits at their edges", () => {
    expect(check(`t=${now - 1800},v0=${hex(now - 1800)}`)).not.toThrow();
    expect(check(`t=${now - 1801},v0=${hex(now - 1801)}`)).toThrow(/older/);
    expect(check(`t=${now + 300},v0=${hex(now + 300)}`)).not.toThrow();
    expect(check(`t=${now + 301},v0=${hex(now + 301)}`)).toThrow(/future/);
  });

  it("needs a header only when required", () => {
    expect(check(null)).not.toThrow();
    expect(check(null, true)).toThrow(/required/);
  });

  it("reads voiceagent-signature before ElevenLabs-Signature", () => {
    expect(signatureHeaderOf(new Headers({ "ElevenLabs-Signature": "b", "voiceagent-signature": "a" }))).toBe("a");
    expect(signatureHeaderOf(new Headers({ "ElevenLabs-Signature": "b" }))).toBe("b");
    expect(signatureHeaderOf(new Headers())).toBeNull();
  });
});

describe("VOICEAGENT_REQUIRE_SIGNATURE", () => {
  it("is refused at start-up without a secret to check signatures with", () => {
    expect(() => parseConfig({ VOICEAGENT_REQUIRE_SIGNATURE: "true" })).toThrow(ConfigError);
    expect(() => parseConfig({ VOICEAGENT_REQUIRE_SIGNATURE: "true" })).toThrow(/VOICEAGENT_REQUIRE_SIGNATURE/);
    expect(parseConfig({ VOICEAGENT_REQUIRE_SIGNATURE: "true", VOICEAGENT_WEBHOOK_SECRET: "s" }).VOICEAGENT_REQUIRE_SIGNATURE).toBe(true);
  });
});
