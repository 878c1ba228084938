import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, gzipEventStream } from "@/lib/http/compressed-stream";

const encoder = new TextEncoder();

describe("a gzipped event stream", () => {
  it("hands each event over whole as soon as it comes, and ends as a valid gzip stream", async () => {
    let source!: ReadableStreamDefaultController<Uint8Array>;
    const reader = gzipEventStream(new ReadableStream<Uint8Array>({ start: (controller) => void (source = controller) })).getReader();
    const received: Uint8Array[] = [];
    const events = Array.from({ length: 5 }, (_, i) => `id: ${i}\ndata: {"call":{"summary":"Smoke seen near the ridge, caller ${i}"}}\n\n`);
    for (const [index, event] of events.entries()) {
      source.enqueue(encoder.encode(event));
      const { value } = await reader.read();
      received.push(value!);
      // What came so far decodes to every event so far: nothing waits for the next one.
      const sofar = Buffer.concat(received);
      expect(gunzipSync(sofar, { finishFlush: 2 /* Z_SYNC_FLUSH */ }).toString()).toBe(events.slice(0, index + 1).join(""));
    }
    source.close();
    for (let next = await reader.read(); !next.done; next = await reader.read()) received.push(next.value);
    expect(gunzipSync(Buffer.concat(received)).toString()).toBe(events.join(""));
  });

  it("reads Accept-Encoding as HTTP does", () => {
    expect(acceptsGzip(new Headers({ "accept-encoding": "gzip, deflate, br" }))).toBe(true);
    expect(acceptsGzip(new Headers({ "accept-encoding": "br;q=1, gzip;q=0.5" }))).toBe(true);
    expect(acceptsGzip(new Headers({ "accept-encoding": "gzip;q=0" }))).toBe(false);
    expect(acceptsGzip(new Headers({ "accept-encoding": "identity" }))).toBe(false);
    expect(acceptsGzip(new Headers())).toBe(false);
  });
});
