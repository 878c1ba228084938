import { mkdtemp, mkdir, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LocalObjectStore } from "@/lib/storage/local";
import type { ObjectStore } from "@/lib/storage/object-store";

/** Objects as files (lib/storage/local.ts): small bodies are written synchronously, others as streams. */
describe("the local object store", () => {
  let root: string;
  let store: ObjectStore;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "mayday-local-store-"));
    store = new LocalObjectStore(root);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("stores the exact bytes of a small body, a large one, a string and a stream, in new folders", async () => {
    const small = Buffer.from('{"type":"post_call_transcription"}');
    const large = Buffer.alloc(1024 * 1024, 7);
    await store.put("calls/a/a_1.json", small, "application/json");
    await store.put("calls/b/b_1.json", large, "application/json");
    await store.put("calls/c/c_1.json", "héllo", "application/json");
    await store.put("calls/d/d_1.mp3", Readable.from([Buffer.from("ab"), Buffer.from("cd")]), "audio/mpeg");
    expect(await store.get("calls/a/a_1.json")).toEqual(small);
    expect(await store.get("calls/b/b_1.json")).toEqual(large);
    expect((await store.get("calls/c/c_1.json"))?.toString("utf8")).toBe("héllo");
    expect((await store.get("calls/d/d_1.mp3"))?.toString()).toBe("abcd");
  });

  it("overwrites an object in place, and a failed write rejects without leaving a partial file", async () => {
    await store.put("calls/a/a_1.json", Buffer.from("first"), "application/json");
    await store.put("calls/a/a_1.json", Buffer.from("second"), "application/json");
    expect((await store.get("calls/a/a_1.json"))?.toString()).toBe("second");
    // A folder where the object should go: the rename fails, for a small body as for a large one.
    await mkdir(path.join(root, "calls/x/x_1.json"), { recursive: true });
    await expect(store.put("calls/x/x_1.json", Buffer.from("small"), "application/json")).rejects.toThrow();
    await expect(store.put("calls/x/x_1.json", Buffer.alloc(512 * 1024), "application/json")).rejects.toThrow();
    expect((await readdir(path.join(root, "calls/x"))).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("reads a range's exact bytes, in chunks, and stops reading when the reader cancels", async () => {
    const bytes = Buffer.from(Array.from({ length: 300 * 1024 }, (_, index) => index % 251));
    await store.put("calls/r/r_recording.mp3", bytes, "audio/mpeg");
    const read = async (start: number, end: number) =>
      Buffer.from(await new Response(await store.readRange("calls/r/r_recording.mp3", { start, end })).arrayBuffer());
    expect(await read(0, bytes.length - 1)).toEqual(bytes);
    expect(await read(1000, 200_000)).toEqual(bytes.subarray(1000, 200_001));
    expect(await read(bytes.length - 1, bytes.length - 1)).toEqual(bytes.subarray(bytes.length - 1));
    expect(await store.readRange("calls/r/missing.mp3", { start: 0, end: 10 })).toBeUndefined();

    // A browser drops an audio request mid-way: the stream is cancelled with reads still to come.
    const reader = (await store.readRange("calls/r/r_recording.mp3", { start: 0, end: bytes.length - 1 }))!.getReader();
    const first = await reader.read();
    expect(first.value?.length).toBeGreaterThan(0);
    await reader.cancel("client went away");
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  it("refuses a key outside its folder", async () => {
    await expect(store.put("../escape.json", Buffer.from("x"), "application/json")).rejects.toThrow(/Invalid object key/);
  });
});
