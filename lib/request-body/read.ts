import { randomUUID } from "node:crypto";
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DomainError } from "../domain-error";

/**
 * The one reader of a request's raw body (the platforms' webhooks and live tools), each chunk fed
 * to the credential's check as it arrives (docs/webhook.md, "Body limits"). Up to `memoryBytes` the
 * body is kept as one Buffer, as every JSON request is. Past that only a recording can be valid,
 * whose bytes are almost all one long base64 JSON string. So from then on the raw bytes go to a
 * temporary file (to be archived as received), and a small scanner copies the JSON around that one
 * long string (the "skeleton", with a marker in the string's place) while the string itself is
 * base64-decoded, chunk by chunk, into a second temporary file. Nothing is published from here:
 * the caller checks the credential, parses the skeleton, and only then stores the files.
 */

export interface BodyLimits {
  /** Largest body kept in memory, and largest skeleton of a spooled one. */
  memoryBytes: number;
  /** Largest body read at all. */
  maxBytes: number;
}

export type RequestBody =
  | { kind: "memory"; bytes: Buffer }
  | {
      kind: "spooled";
      /** The raw body, byte for byte. */
      rawPath: string;
      size: number;
      /** The JSON with its one long string replaced by `marker`. */
      skeleton: Buffer;
      marker: string;
      /** The long string, base64-decoded; null when the body had none. */
      decodedPath: string | null;
      decodedBytes: number;
      /** Removes the temporary files. */
      cleanup(): Promise<void>;
    };

/** A string this long (in raw bytes) is taken out of the skeleton. */
const LONG_STRING_BYTES = 64 * 1024;

export const payloadTooLarge = (message: string) => new DomainError("PAYLOAD_TOO_LARGE", message);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Base64 text (as it sits in a JSON string, escapes and all) decoded incrementally. JSON escapes
 * are resolved (`\/` is `/`; others, such as an escaped line break, carry no base64), characters
 * outside the alphabet are skipped, and base64url is read as base64.
 */
class Base64Decoder {
  private pending = "";
  private escape = "";

  /** Decoded bytes of everything fed so far but a last partial quantum. */
  push(raw: Buffer): Buffer {
    let text = raw.toString("latin1");
    if (this.escape !== "" || text.includes("\\")) text = this.unescape(text);
    text = this.pending + text.replace(/[^A-Za-z0-9+/=_-]/g, "");
    const whole = text.length - (text.length % 4);
    this.pending = text.slice(whole);
    return Buffer.from(text.slice(0, whole), "base64");
  }

  end(): Buffer {
    const rest = this.pending;
    this.pending = "";
    return Buffer.from(rest, "base64");
  }

  private unescape(text: string): string {
    let out = "";
    let index = 0;
    let escape = this.escape;
    for (; index < text.length; index++) {
      const character = text[index];
      if (escape === "") {
        if (character === "\\") escape = "\\";
        else out += character;
        continue;
      }
      escape += character;
      if (escape === "\\/") out += "/";
      // `\uXXXX` is six characters long; every other escape two.
      if (escape.length === 2 && escape !== "\\u") escape = "";
      else if (escape.length === 6) escape = "";
    }
    this.escape = escape;
    return out;
  }
}

/** Splits JSON bytes into a skeleton and (at most) one long string. */
class LongStringScanner {
  readonly marker = `@@mayday-spooled-${randomUUID()}@@`;
  private readonly skeleton: Buffer[] = [];
  private skeletonBytes = 0;
  private inString = false;
  private escaped = false;
  private stringParts: Buffer[] = [];
  private stringBytes = 0;
  private long = false;
  private longStrings = 0;
  private readonly decoder = new Base64Decoder();

  constructor(private readonly maxSkeletonBytes: number) {}

  /** Feeds raw bytes; answers the decoded bytes of the long string they carried. */
  push(chunk: Buffer): Buffer[] {
    const decoded: Buffer[] = [];
    let index = 0;
    while (index < chunk.length) {
      if (!this.inString) {
        const quote = chunk.indexOf(QUOTE, index);
        const end = quote < 0 ? chunk.length : quote + 1;
        this.keep(chunk.subarray(index, end));
        index = end;
        if (quote >= 0) this.openString();
        continue;
      }
      let end = index;
      for (; end < chunk.length; end++) {
        const byte = chunk[end];
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) break;
      }
      this.stringContent(chunk.subarray(index, end), decoded);
      if (end < chunk.length) {
        this.closeString(decoded);
        this.keep(chunk.subarray(end, end + 1));
        index = end + 1;
      } else {
        index = end;
      }
    }
    return decoded;
  }

  finish(): { skeleton: Buffer; decoded: Buffer; hadLongString: boolean } {
    if (this.inString) this.closeString([]);
    return { skeleton: Buffer.concat(this.skeleton), decoded: this.decoder.end(), hadLongString: this.longStrings > 0 };
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.skeletonBytes += bytes.length;
    if (this.skeletonBytes > this.maxSkeletonBytes) {
      throw payloadTooLarge(
        `Request body exceeds ${this.maxSkeletonBytes} bytes outside the audio of a post_call_audio event`,
      );
    }
    // Copied: the caller's chunk may be reused.
    this.skeleton.push(Buffer.from(bytes));
  }

  private openString(): void {
    this.inString = true;
    this.escaped = false;
    this.stringParts = [];
    this.stringBytes = 0;
    this.long = false;
  }

  private stringContent(bytes: Buffer, decoded: Buffer[]): void {
    if (bytes.length === 0) return;
    if (this.long) {
      decoded.push(this.decoder.push(bytes));
      return;
    }
    this.stringParts.push(Buffer.from(bytes));
    this.stringBytes += bytes.length;
    if (this.stringBytes <= LONG_STRING_BYTES) return;
    if (this.longStrings > 0) {
      throw payloadTooLarge("Only one field (the audio of a post_call_audio event) may be that large");
    }
    this.long = true;
    this.longStrings += 1;
    this.keep(Buffer.from(this.marker));
    decoded.push(this.decoder.push(Buffer.concat(this.stringParts)));
    this.stringParts = [];
  }

  private closeString(decoded: Buffer[]): void {
    if (!this.long) for (const part of this.stringParts) this.keep(part);
    else decoded.push(this.decoder.end());
    this.inString = false;
    this.stringParts = [];
  }
}

async function writeAll(file: FileHandle, buffers: Buffer[]): Promise<number> {
  let written = 0;
  for (const buffer of buffers) {
    if (buffer.length === 0) continue;
    await file.write(buffer);
    written += buffer.length;
  }
  return written;
}

/**
 * Reads a body chunk by chunk, handing each chunk to `onChunk` (the signature's HMAC) as it
 * arrives; 413 PAYLOAD_TOO_LARGE as soon as a limit is passed.
 */
export async function readRequestBody(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  limits: BodyLimits,
  onChunk: (chunk: Uint8Array) => void,
): Promise<RequestBody> {
  const inMemory: Buffer[] = [];
  let size = 0;
  let spool:
    | { dir: string; raw: FileHandle; decoded: FileHandle; scanner: LongStringScanner; decodedBytes: number }
    | undefined;

  const cleanup = async () => {
    if (!spool) return;
    await Promise.allSettled([spool.raw.close(), spool.decoded.close()]);
    await rm(spool.dir, { recursive: true, force: true });
  };

  try {
    for await (const value of chunks) {
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      size += chunk.length;
      if (size > limits.maxBytes) throw payloadTooLarge(`Request body exceeds ${limits.maxBytes} bytes`);
      onChunk(chunk);
      if (!spool && size <= limits.memoryBytes) {
        inMemory.push(Buffer.from(chunk));
        continue;
      }
      if (!spool) {
        const dir = await mkdtemp(path.join(tmpdir(), "mayday-webhook-"));
        spool = {
          dir,
          raw: await open(path.join(dir, "raw.json"), "w"),
          decoded: await open(path.join(dir, "decoded.bin"), "w"),
          scanner: new LongStringScanner(limits.memoryBytes),
          decodedBytes: 0,
        };
        // What was held so far goes the same way as the rest.
        const held = Buffer.concat(inMemory);
        inMemory.length = 0;
        await spool.raw.write(held);
        spool.decodedBytes += await writeAll(spool.decoded, spool.scanner.push(held));
      }
      await spool.raw.write(chunk);
      spool.decodedBytes += await writeAll(spool.decoded, spool.scanner.push(chunk));
    }
    if (!spool) return { kind: "memory", bytes: Buffer.concat(inMemory) };

    const { skeleton, decoded, hadLongString } = spool.scanner.finish();
    spool.decodedBytes += await writeAll(spool.decoded, [decoded]);
    await Promise.all([spool.raw.close(), spool.decoded.close()]);
    return {
      kind: "spooled",
      rawPath: path.join(spool.dir, "raw.json"),
      size,
      skeleton,
      marker: spool.scanner.marker,
      decodedPath: hadLongString ? path.join(spool.dir, "decoded.bin") : null,
      decodedBytes: spool.decodedBytes,
      cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
