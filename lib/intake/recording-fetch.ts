import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { pipeline, Transform } from "node:stream";
import { getConfig } from "../config";
import { addressGuard, RefusedAddressError } from "../net/address";
import { getObjectStore } from "../storage/get-object-store";
import { recordingKey } from "../voice-platforms/payload-keys";
import type { RecordingLink } from "./recording-link";

/**
 * One fetch of a platform's recording link into object storage (docs/webhook.md, "Recordings"):
 * http(s) only; no private, loopback or link-local address unless RECORDING_ALLOW_PRIVATE_SOURCES
 * (lib/net/address.ts: the connection goes to the address checked), checked again at each of at
 * most MAX_REDIRECTS redirects; the whole fetch within RECORDING_FETCH_TIMEOUT_MS; the body
 * streamed into the store, never held whole, and cut off past RECORDING_MAX_BYTES. The stores
 * publish an object only once all of it is written, so a cut-off fetch leaves nothing under the key.
 */

const MAX_REDIRECTS = 3;

const sourceGuard = addressGuard(() => getConfig().RECORDING_ALLOW_PRIVATE_SOURCES);

export type FetchOutcome =
  | ({ kind: "archived" } & RecordingLink)
  /**
   * `final`: trying again cannot help (a refused address, too large), so the link is given up now;
   * `status`: the source's HTTP status when it answered with another than 2xx.
   */
  | { kind: "failed"; error: string; final: boolean; status?: number };

/** A failure that another attempt would meet again. */
class Refusal extends Error {}

/**
 * Audio types a recording may be served as, with its key's extension. A server that says only
 * octet-stream is taken at the link's extension, as the first type listed with it.
 */
const AUDIO_TYPES: readonly (readonly [string, string])[] = [
  ["audio/wav", "wav"], ["audio/x-wav", "wav"], ["audio/wave", "wav"], ["audio/vnd.wave", "wav"],
  ["audio/mpeg", "mp3"], ["audio/mp3", "mp3"], ["audio/ogg", "ogg"], ["audio/webm", "webm"],
  ["audio/flac", "flac"], ["audio/x-flac", "flac"], ["audio/mp4", "m4a"], ["audio/x-m4a", "m4a"], ["audio/aac", "aac"],
];
const UNTYPED = new Set(["", "application/octet-stream", "binary/octet-stream"]);

/** The type to store and serve back, and the key's extension; undefined when the answer is not audio. */
export function audioTypeOf(header: string | undefined, url: URL): { contentType: string; extension: string } | undefined {
  const type = (header ?? "").split(";")[0].trim().toLowerCase();
  const known = AUDIO_TYPES.find(([name]) => name === type);
  if (known) return { contentType: type, extension: known[1] };
  const named = AUDIO_TYPES.find(([, extension]) => url.pathname.toLowerCase().endsWith(`.${extension}`));
  if (/^audio\/[a-z0-9][a-z0-9.+-]{0,63}$/.test(type)) return { contentType: type, extension: named?.[1] ?? "audio" };
  if (UNTYPED.has(type) && named) return { contentType: named[0], extension: named[1] };
  return undefined;
}

function get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, {
      lookup: sourceGuard.lookup,
      agent: false,
      signal,
      headers: { accept: "audio/*, */*;q=0.1", "user-agent": "Mayday-Recordings/1" },
    }, resolve);
    request.on("error", reject);
  });
}

/** The answer after the redirects, each to a URL the guard checks like the first. */
async function open(link: URL, signal: AbortSignal): Promise<{ response: IncomingMessage; url: URL }> {
  let url = link;
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Refusal(`${url.protocol} is not http(s)`);
    await sourceGuard.checkLiteral(url);
    const response = await get(url, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status < 300 || status > 399 || location === undefined) return { response, url };
    response.destroy();
    if (redirects === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    url = new URL(location, url);
  }
}

/** Fetches `link` and stores it as the conversation's recording (not yet linked: the caller links it). */
export async function fetchRecording(conversationId: string, link: string): Promise<FetchOutcome> {
  const { RECORDING_FETCH_TIMEOUT_MS: timeoutMs, RECORDING_MAX_BYTES: maxBytes } = getConfig();
  const deadline = AbortSignal.timeout(timeoutMs);
  const failed = (error: string, final = false, status?: number): FetchOutcome => ({ kind: "failed", error, final, status });
  let response: IncomingMessage | undefined;
  // Kept here too: a store may wrap the stream's error in its own.
  let tooLarge: Refusal | undefined;
  if (!URL.canParse(link)) return failed("not a URL", true);
  try {
    const opened = await open(new URL(link), deadline);
    response = opened.response;
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) return failed(`HTTP ${status}`, false, status);
    const type = audioTypeOf(response.headers["content-type"], opened.url);
    if (!type) return failed(`not audio: ${(response.headers["content-type"] ?? "no content type").slice(0, 100)}`);
    const declared = Number(response.headers["content-length"]);
    if (declared > maxBytes) return failed(`larger than ${maxBytes} bytes (Content-Length ${declared})`, true);
    let sizeBytes = 0;
    const bounded = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sizeBytes += chunk.length;
        if (sizeBytes > maxBytes) tooLarge = new Refusal(`larger than ${maxBytes} bytes`);
        done(tooLarge ?? null, chunk);
      },
    });
    const key = recordingKey(conversationId, type.extension);
    await getObjectStore().put(key, pipeline(response, bounded, () => {}), type.contentType);
    if (sizeBytes === 0) {
      await getObjectStore().delete(key);
      return failed("empty body");
    }
    return { kind: "archived", conversationId, key, contentType: type.contentType, sizeBytes };
  } catch (error) {
    if (tooLarge) return failed(tooLarge.message, true);
    if (deadline.aborted) return failed(`no complete answer within ${timeoutMs} ms`);
    const message = error instanceof Error ? error.message : String(error);
    return failed(message, error instanceof Refusal || error instanceof RefusedAddressError);
  } finally {
    response?.destroy();
  }
}
