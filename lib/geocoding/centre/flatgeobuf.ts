import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { type FeatureInput, featureFields, malformedFile } from "./fields";

/**
 * A FlatGeobuf file's features, read on a thread of its own (docs/geocoding.md, "The centre's GIS
 * data"). The `flatgeobuf` package decodes a header and each feature synchronously, and trusts
 * what the file says: given a header that declares a spatial index over no features it loops
 * forever (its `calcTreeSize(0, 16)` never reaches 1), and a declared length is allocated before
 * any of it arrives. On the main thread that froze the whole server, SIGTERM included (issue 50).
 *
 * So the thread frames the file itself, checking each size against what the format allows before
 * the package sees the bytes: the magic bytes, a header of at most MAX_HEADER_BYTES that arrived
 * whole, a layer of Points or LineStrings, an index only over a counted set of features (skipped
 * as it streams, never held), each feature at most MAX_FEATURE_BYTES, as many features as the
 * header counts. Only then does the package decode the header and each feature. The main thread
 * feeds it one chunk of the upload at a time and takes its features back; a thread that sends
 * nothing for STALL_MS while it holds input, or that runs out of its memory, is stopped and the
 * file refused where it was, so no file, however made, holds the server.
 */

/** The largest header: the reference (Rust) reader's limit. */
export const MAX_HEADER_BYTES = 10 * 1024 * 1024;
/** The largest feature: a centreline of a million positions. */
export const MAX_FEATURE_BYTES = 16 * 1024 * 1024;
/** How long the thread may work on its input without a word: a chunk of 64 KB takes milliseconds. */
export const STALL_MS = 2_000;
/** The thread's JavaScript heap: a hostile feature fails there, not in the server's heap. */
const THREAD_HEAP_MB = 256;
/** Features per message back. */
const BATCH = 1_000;

/** Where the thread is, written before each step so a stopped thread can be named: [feature or -1, byte]. */
const PLACE_FEATURE = 0;
const PLACE_BYTE = 1;

const READER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const { pathToFileURL } = require("node:url");
const { port, place, maxHeaderBytes, maxFeatureBytes, batchSize } = workerData;
const fromCwd = createRequire(require("node:path").join(process.cwd(), "package.json"));
const fromPackage = createRequire(fromCwd.resolve("flatgeobuf/package.json"));
const load = (specifier) => import(pathToFileURL(fromPackage.resolve(specifier)).href);

class Refused extends Error {
  constructor(where, problem) { super(problem); this.where = where; }
}
const bytes = (n) => n.toLocaleString("en-US");

let waiting;
port.on("message", (message) => waiting(message));
let pending = [];
let available = 0;
let ended = false;
let position = 0;
let batch = [];
function flush() {
  if (batch.length > 0) port.postMessage({ type: "features", features: batch });
  batch = [];
}
/** Asks for chunks until n bytes are here or the upload has ended. */
async function fill(n) {
  while (available < n && !ended) {
    flush();
    port.postMessage({ type: "more" });
    const { chunk } = await new Promise((resolve) => (waiting = resolve));
    if (chunk) {
      pending.push(chunk);
      available += chunk.byteLength;
    } else ended = true;
  }
}
/** Up to n bytes (fewer only at the end), copied out of the chunks. */
function take(n) {
  const out = new Uint8Array(Math.min(n, available));
  let at = 0;
  while (at < out.length) {
    const head = pending[0];
    const need = out.length - at;
    if (head.byteLength <= need) {
      out.set(head, at);
      at += head.byteLength;
      pending.shift();
    } else {
      out.set(head.subarray(0, need), at);
      pending[0] = head.subarray(need);
      at += need;
    }
  }
  available -= out.length;
  position += out.length;
  return out;
}
/** Passes over n bytes as they arrive, holding none; how many there were. */
async function skip(n) {
  let skipped = 0;
  while (skipped < n) {
    await fill(1);
    if (available === 0) break;
    skipped += take(Math.min(n - skipped, available, 1 << 20)).length;
  }
  return skipped;
}
const uint32 = (b) => (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0;
const MAGIC = [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62];
const READABLE_TYPES = new Set([0, 1, 2]);
const TYPE_NAMES = ["Unknown", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"];
const typeName = (type) => TYPE_NAMES[type] ?? "geometry type " + type;

async function read() {
  const [{ ByteBuffer }, { fromByteBuffer }, { Feature }, { fromFeature }, { calcTreeSize }] = await Promise.all([
    load("flatbuffers"),
    load("./lib/mjs/header-meta.js"),
    load("./lib/mjs/flat-geobuf/feature.js"),
    load("./lib/mjs/geojson/feature.js"),
    load("./lib/mjs/packedrtree.js"),
  ]);
  place[0] = -1;
  await fill(12);
  const start = take(12);
  if (start.length < 8 || MAGIC.some((value, i) => start[i] !== value)) {
    throw new Refused("file", "not a readable FlatGeobuf file (it does not begin with FlatGeobuf 3's magic bytes)");
  }
  if (start.length < 12) throw new Refused("header", "cut short before its length (byte 8)");
  const headerLength = uint32(start.subarray(8));
  if (headerLength < 4 || headerLength > maxHeaderBytes) {
    throw new Refused("header", "a length of " + bytes(headerLength) + " bytes (byte 8); a FlatGeobuf header has 4 to " + bytes(maxHeaderBytes));
  }
  await fill(headerLength);
  const headerBytes = take(headerLength);
  if (headerBytes.length < headerLength) {
    throw new Refused("header", "cut short: " + bytes(headerBytes.length) + " of its " + bytes(headerLength) + " bytes arrived");
  }
  const sized = new Uint8Array(4 + headerLength);
  sized.set(start.subarray(8));
  sized.set(headerBytes, 4);
  place[1] = 12;
  let header;
  try {
    header = fromByteBuffer(new ByteBuffer(sized));
  } catch (error) {
    throw new Refused("header", "not a readable FlatGeobuf header (" + String(error && error.message).slice(0, 120) + ")");
  }
  if (!READABLE_TYPES.has(header.geometryType)) {
    throw new Refused("header", "its layer's geometry is " + typeName(header.geometryType) + "; address points are Points and centrelines LineStrings");
  }
  const { featuresCount, indexNodeSize } = header;
  let indexBytes = 0;
  if (indexNodeSize > 0) {
    // calcTreeSize never ends for no features: an index needs the count the header gives.
    if (!(featuresCount > 0)) throw new Refused("header", "a spatial index (node size " + indexNodeSize + ") over an uncounted set of features");
    indexBytes = calcTreeSize(featuresCount, indexNodeSize);
    const skipped = await skip(indexBytes);
    if (skipped < indexBytes) throw new Refused("index", "cut short: " + bytes(skipped) + " of its " + bytes(indexBytes) + " bytes arrived");
  }
  let id = 0;
  for (;;) {
    place[0] = id;
    place[1] = position;
    await fill(4);
    if (available === 0) break;
    const where = "feature " + id;
    const lengthBytes = take(4);
    if (lengthBytes.length < 4) throw new Refused(where, "cut short at byte " + bytes(position - lengthBytes.length));
    const featureLength = uint32(lengthBytes);
    if (featureLength > maxFeatureBytes) {
      throw new Refused(where, "a length of " + bytes(featureLength) + " bytes (byte " + bytes(position - 4) + "); a feature may have " + bytes(maxFeatureBytes));
    }
    await fill(featureLength);
    const body = take(featureLength);
    if (body.length < featureLength) throw new Refused(where, "cut short: " + bytes(body.length) + " of its " + bytes(featureLength) + " bytes arrived");
    const sizedFeature = new Uint8Array(4 + featureLength);
    sizedFeature.set(lengthBytes);
    sizedFeature.set(body, 4);
    let geojson;
    try {
      const feature = Feature.getSizePrefixedRootAsFeature(new ByteBuffer(sizedFeature));
      if (header.geometryType === 0) {
        const type = feature.geometry() ? feature.geometry().type() : 0;
        if (!READABLE_TYPES.has(type) || type === 0) throw new Refused(where, "its geometry is " + typeName(type) + "; an address point is a Point and a centreline a LineString");
      }
      geojson = fromFeature(id, feature, header);
    } catch (error) {
      if (error instanceof Refused) throw error;
      throw new Refused(where, "not a readable FlatGeobuf feature (" + String(error && error.message).slice(0, 120) + ")");
    }
    batch.push({ properties: geojson.properties ?? {}, geometry: geojson.geometry });
    if (batch.length === batchSize) flush();
    id += 1;
  }
  if (featuresCount > 0 && id !== featuresCount) {
    throw new Refused("file", "its header counts " + bytes(featuresCount) + " features and " + bytes(id) + " arrived");
  }
  flush();
  port.postMessage({ type: "done" });
}
read().catch((error) => {
  flush();
  port.postMessage(error instanceof Refused
    ? { type: "refused", where: error.where, problem: error.message }
    : { type: "refused", where: place[0] < 0 ? "header" : "feature " + place[0], problem: "not a readable FlatGeobuf file (" + String(error && error.message).slice(0, 120) + ")" });
});`;

type Answer =
  | { type: "more" }
  | { type: "features"; features: { properties: Record<string, unknown>; geometry: unknown }[] }
  | { type: "done" }
  | { type: "refused"; where: string; problem: string }
  | { type: "stopped"; problem: string };

/** The reader thread seen from the main thread: answers in order, and a watch while it holds input. */
class ReaderThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly place = new Float64Array(new SharedArrayBuffer(16));
  private readonly answers: Answer[] = [];
  private waiter: ((answer: Answer) => void) | undefined;
  /** Input handed over and not yet answered for: the only time the thread is watched. */
  private working = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(READER_SOURCE, {
      eval: true,
      workerData: { port: port2, place: this.place, maxHeaderBytes: MAX_HEADER_BYTES, maxFeatureBytes: MAX_FEATURE_BYTES, batchSize: BATCH },
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    this.port.on("message", (answer: Answer) => this.deliver(answer));
    this.worker.on("error", (error) => this.deliver({ type: "stopped", problem: `the FlatGeobuf reader failed (${error.message.slice(0, 120)})` }));
    this.worker.on("exit", (code) => this.deliver({ type: "stopped", problem: `the FlatGeobuf reader stopped (exit code ${code})` }));
  }

  /** Where the thread was last: "header", or "feature N (byte B)". */
  where(): string {
    const feature = this.place[PLACE_FEATURE];
    return feature < 0 ? "header" : `feature ${feature} (byte ${this.place[PLACE_BYTE].toLocaleString("en-US")})`;
  }

  private deliver(answer: Answer): void {
    if (answer.type !== "features") this.working = false;
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(answer);
    else this.answers.push(answer);
  }

  send(chunk: Uint8Array | undefined): void {
    this.working = true;
    if (!chunk) return this.port.postMessage({});
    // A chunk may be a view into a larger buffer (a socket's read, Node's pool): its own bytes are
    // copied, and that copy moved to the thread.
    const copy = Uint8Array.prototype.slice.call(chunk);
    this.port.postMessage({ chunk: copy }, [copy.buffer as ArrayBuffer]);
  }

  /**
   * The thread's next answer. While it holds input, STALL_MS without one stops it; an answer that
   * arrived while this thread was busy is looked for first, so a slow main thread never stops a
   * reader that had answered.
   */
  next(): Promise<Answer> {
    const queued = this.answers.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => {
      const watch = this.working
        ? setTimeout(() => {
            const late = receiveMessageOnPort(this.port);
            if (late) return this.deliver(late.message as Answer);
            this.waiter = undefined;
            resolve({ type: "stopped", problem: `the FlatGeobuf reader was still at it after ${STALL_MS / 1000} s` });
          }, STALL_MS)
        : undefined;
      this.waiter = (answer) => {
        clearTimeout(watch);
        resolve(answer);
      };
    });
  }

  async stop(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}

export async function* flatgeobufFeatures(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<FeatureInput> {
  const thread = new ReaderThread();
  const input = chunks[Symbol.asyncIterator]();
  let index = 0;
  try {
    for (;;) {
      const answer = await thread.next();
      if (answer.type === "more") {
        const next = await input.next();
        thread.send(next.done ? undefined : next.value);
      } else if (answer.type === "features") {
        for (const { properties, geometry } of answer.features) {
          yield { where: `feature ${index}`, fields: featureFields(properties), geometry };
          index += 1;
        }
      } else if (answer.type === "done") {
        return;
      } else if (answer.type === "refused") {
        throw malformedFile(answer.where, answer.problem);
      } else {
        throw malformedFile(thread.where(), answer.problem);
      }
    }
  } finally {
    await thread.stop();
    // The upload's rest is not read: its reader is told so (lib/http/body.ts stops receiving).
    await input.return?.();
  }
}
