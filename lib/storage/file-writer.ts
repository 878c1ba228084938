import { Worker } from "node:worker_threads";
import { processPart } from "../process-parts";

/**
 * Writes whole files on a thread of their own (lib/storage/local.ts): create the folder, write
 * beside, rename into place. Through Node's asynchronous calls those are five steps, each waiting
 * its turn on the event loop (10 ms of a webhook's 30 under load); done synchronously on the main
 * thread, about 0.1 ms of its time per payload, more on a slow disk, with every request waiting
 * meanwhile. Here the main thread only hands the bytes over and is answered once
 * (docs/performance.md, issue 25). The thread does not keep the process alive, and a thread that
 * dies fails the writes it held and is started again on the next write.
 */
const WRITER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { mkdirSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const { dirname } = require("node:path");
function writeOne({ id, target, temporary, body }) {
  try {
    mkdirSync(dirname(target), { recursive: true });
    try {
      writeFileSync(temporary, body);
      renameSync(temporary, target);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    return { id };
  } catch (error) {
    return { id, error: { message: String(error && error.message), code: error && error.code } };
  }
}
parentPort.on("message", (jobs) => parentPort.postMessage(jobs.map(writeOne)));`;

interface Job {
  id: number;
  target: string;
  temporary: string;
  body: string | Uint8Array;
}

interface Waiting {
  resolve: () => void;
  reject: (error: Error) => void;
  done: Promise<void>;
}

interface Answer {
  id: number;
  error?: { message: string; code?: string };
}

class FileWriter {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, Waiting>();
  /** Writes asked for in this turn of the event loop: handed over together, in one message. */
  private queued: Job[] = [];

  /** Writes `body` to `temporary`, then renames it to `target` (its folder created first). */
  write(target: string, temporary: string, body: string | Uint8Array): Promise<void> {
    const id = this.next++;
    let waiting!: Omit<Waiting, "done">;
    const promise = new Promise<void>((resolve, reject) => (waiting = { resolve, reject }));
    this.waiting.set(id, { ...waiting, done: promise });
    if (typeof body === "string") {
      this.queued.push({ id, target, temporary, body });
    } else {
      // A buffer may be a view into a larger one (a socket's read, Node's pool), which a message
      // would copy whole: only its own bytes are copied, and handed over without a second copy.
      const bytes = Uint8Array.prototype.slice.call(body);
      this.queued.push({ id, target, temporary, body: bytes });
    }
    // Under load a turn of the loop reads many requests: one message for all their writes, and
    // one answer, rather than a message and an answer each.
    if (this.queued.length === 1) setImmediate(() => this.handOver());
    return promise;
  }

  private handOver(): void {
    const jobs = this.queued;
    this.queued = [];
    // Each buffer is the write's own copy: moved to the thread, not copied again.
    const transfers = jobs.flatMap(({ body }) => (typeof body === "string" ? [] : [body.buffer as ArrayBuffer]));
    if (jobs.length > 0) this.thread().postMessage(jobs, transfers);
  }

  /** Resolves once the writes handed over have finished and the thread has ended. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.waiting.values()].map(({ done }) => done));
    await this.worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WRITER_SOURCE, { eval: true });
    worker.unref();
    worker.on("message", (answers: Answer[]) => {
      for (const { id, error } of answers) {
        const waiting = this.waiting.get(id);
        this.waiting.delete(id);
        if (!error) waiting?.resolve();
        else waiting?.reject(Object.assign(new Error(error.message), error.code ? { code: error.code } : {}));
      }
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
      // Failed above: not written later either.
      this.queued = [];
    };
    worker.on("error", failAll);
    worker.on("exit", (code) => failAll(new Error(`the file writer stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

export function writeFileInPlace(target: string, temporary: string, body: string | Uint8Array): Promise<void> {
  return processPart("file writer", () => new FileWriter(), (writer) => writer.stop()).write(target, temporary, body);
}
