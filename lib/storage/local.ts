import { randomUUID } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { writeFileInPlace } from "./file-writer";
import type { ByteRange, ObjectBody, ObjectStore } from "./object-store";

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
    return Readable.toWeb(createReadStream(target, range)) as ReadableStream<Uint8Array>;
  }

  /** The root exists (created on first use, as put would) and this process may write in it. */
  async checkAvailable(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}
