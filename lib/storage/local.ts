import { randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { access, type FileHandle, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { writeFileInPlace } from "./file-writer";
import type { ByteRange, ObjectBody, ObjectStore } from "./object-store";

/** Bytes per read of a range: what an audio element's request is answered in, chunk by chunk. */
const RANGE_CHUNK_BYTES = 64 * 1024;

/**
 * A file's bytes `range` as a web stream that reads only when its reader asks (pull), and closes the
 * file when done or cancelled. Not Readable.toWeb: its adapter enqueues data that arrives after the
 * reader cancelled, an uncaught error ("Controller is already closed", nodejs/node#64529) each time a
 * browser's audio element drops a range request mid-way.
 */
function fileRangeStream(target: string, range: ByteRange): ReadableStream<Uint8Array> {
  let file: FileHandle | undefined;
  let position = range.start;
  const close = async () => {
    const handle = file;
    file = undefined;
    await handle?.close();
  };
  return new ReadableStream<Uint8Array>({
    async start() {
      file = await open(target, "r");
    },
    async pull(controller) {
      const length = Math.min(RANGE_CHUNK_BYTES, range.end - position + 1);
      const chunk = new Uint8Array(Math.max(0, length));
      const { bytesRead } = length > 0 && file ? await file.read(chunk, 0, length, position) : { bytesRead: 0 };
      if (bytesRead === 0) {
        await close();
        controller.close();
        return;
      }
      position += bytesRead;
      controller.enqueue(chunk.subarray(0, bytesRead));
    },
    cancel: close,
  });
}

/** Bodies in memory up to this size are written by the file writer's thread (file-writer.ts); larger ones and streams through Node's own asynchronous calls. */
const WRITER_THREAD_BYTES = 1024 * 1024;

/** Objects as files under one directory, with the same key layout as the blob store. */
export class LocalObjectStore implements ObjectStore {
  readonly kind = "local";
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathFor(key: string): string {
    const target = path.resolve(this.root, key);
    if (!target.startsWith(this.root + path.sep)) throw new Error(`Invalid object key: ${key}`);
    return target;
  }

  async put(key: string, body: ObjectBody): Promise<void> {
    const target = this.pathFor(key);
    // Write beside, then rename: a reader never sees half a payload, even after a crash.
    const temporary = `${target}.${randomUUID()}.tmp`;
    if ((typeof body === "string" || Buffer.isBuffer(body)) && Buffer.byteLength(body) <= WRITER_THREAD_BYTES) {
      return writeFileInPlace(target, temporary, body);
    }
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await writeFile(temporary, body);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathFor(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  async list(folder: string): Promise<string[]> {
    const prefix = folder.endsWith("/") ? folder : `${folder}/`;
    let entries;
    try {
      entries = await readdir(this.pathFor(prefix.slice(0, -1)), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    // Files still being written (put's temporary names) are not objects yet.
    return entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith(".tmp"))
      .map((entry) => `${prefix}${entry.name}`)
      .sort();
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathFor(key), { force: true });
  }

  async readRange(key: string, range: ByteRange): Promise<ReadableStream<Uint8Array> | undefined> {
    const target = this.pathFor(key);
    try {
      await stat(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    return fileRangeStream(target, range);
  }

  /** The root exists (created on first use, as put would) and this process may write in it. */
  async checkAvailable(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}
