import { describe, expect, it } from "vitest";
import { audioTypeOf } from "@/lib/intake/recording-fetch";

/** The type a fetched recording is stored and served as, and its key's extension (lib/intake/recording-fetch.ts). */
describe("a fetched recording's type", () => {
  const at = (path: string) => new URL(`https://storage.example${path}`);

  it("keeps the audio type the platform served, parameters dropped, with its extension", () => {
    expect(audioTypeOf("audio/wav", at("/a"))).toEqual({ contentType: "audio/wav", extension: "wav" });
    expect(audioTypeOf("Audio/MPEG; charset=binary", at("/a.wav"))).toEqual({ contentType: "audio/mpeg", extension: "mp3" });
    expect(audioTypeOf("audio/x-wav", at("/a"))).toEqual({ contentType: "audio/x-wav", extension: "wav" });
  });

  it("takes an untyped answer at the link's extension, and an unknown audio type at its own", () => {
    expect(audioTypeOf("application/octet-stream", at("/call/recording.wav"))).toEqual({ contentType: "audio/wav", extension: "wav" });
    expect(audioTypeOf(undefined, at("/call/recording.MP3"))).toEqual({ contentType: "audio/mpeg", extension: "mp3" });
    expect(audioTypeOf("audio/opus", at("/call/recording.ogg"))).toEqual({ contentType: "audio/opus", extension: "ogg" });
    expect(audioTypeOf("audio/opus", at("/call/recording"))).toEqual({ contentType: "audio/opus", extension: "audio" });
  });

  it("refuses what is not audio", () => {
    expect(audioTypeOf("text/html", at("/call/recording.wav"))).toBeUndefined();
    expect(audioTypeOf("application/octet-stream", at("/call/recording"))).toBeUndefined();
    expect(audioTypeOf("audio/<script>", at("/a.wav"))).toBeUndefined();
  });
});
