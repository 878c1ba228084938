import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRequestBody } from "@/lib/request-body/read";

/** The body cut into chunks of the given sizes (cycled), as a network would deliver it. */
function* chunked(body: Buffer, sizes: number[]): Generator<Uint8Array> {
  let offset = 0;
  for (let index = 0; offset < body.length; index++) {
    const size = sizes[index % sizes.length];
    yield body.subarray(offset, offset + size);
    offset += size;
  }
}

const limits = { memoryBytes: 4_096, maxBytes: 1 << 20 };

describe("readRequestBody", () => {
  it("keeps a body under the memory limit whole, and hands every byte to the signature", async () => {
    const body = Buffer.from('{"type":"x"}');
    const seen: Buffer[] = [];
    const result = await readRequestBody(chunked(body, [3]), limits, (chunk) => seen.push(Buffer.from(chunk)));
    expect(result).toEqual({ kind: "memory", bytes: body });
    expect(Buffer.concat(seen).equals(body)).toBe(true);
  });

  it("spools a large body: raw bytes as received, the long string decoded, the rest as skeleton, at any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 9_000 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        async (sizes, escapeSlashes, wrapLines) => {
          const audio = randomBytes(70_000 + Math.floor(Math.random() * 100));
          let base64 = audio.toString("base64");
          if (wrapLines) base64 = base64.replace(/.{76}/g, "$&\n");
          let json = JSON.stringify({ type: "post_call_audio", data: { conversation_id: "c\"1", full_audio: base64, note: "é\\" } });
          if (escapeSlashes) json = json.replaceAll("/", "\\/");
          const raw = Buffer.from(json);
          const result = await readRequestBody(chunked(raw, sizes), limits, () => undefined);
          if (result.kind !== "spooled") throw new Error("expected a spooled body");
          try {
            expect((await readFile(result.rawPath)).equals(raw)).toBe(true);
            expect((await readFile(result.decodedPath!)).equals(audio)).toBe(true);
            expect(result.decodedBytes).toBe(audio.length);
            expect(JSON.parse(result.skeleton.toString("utf8"))).toEqual({
              type: "post_call_audio",
              data: { conversation_id: 'c"1', full_audio: result.marker, note: "é\\" },
            });
          } finally {
            await result.cleanup();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("refuses a large body whose bytes are not inside one long string, before reading it all", async () => {
    let pulled = 0;
    function* spaces() {
      for (; pulled < 100; pulled++) yield Buffer.alloc(1_000, 0x20);
    }
    await expect(readRequestBody(spaces(), limits, () => undefined)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(pulled).toBeLessThan(10);
  });

  it("refuses a body over the hard limit", async () => {
    const body = Buffer.alloc(limits.maxBytes + 1, 0x41);
    await expect(readRequestBody(chunked(body, [65_536]), limits, () => undefined)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });
});
