import { createReadStream } from "node:fs";
import { getConfig } from "../config";
import { DomainError, parseJson } from "../domain-error";
import type { Platform } from "../vocabulary";
import { payloadTooLarge, readRequestBody } from "../request-body/read";
import type { IntakeEvent } from "../voice-platforms/event";
import { platformOfPayloadKey, unsignedKey } from "../voice-platforms/payload-keys";
import { WEBHOOK_MAX_BODY_BYTES } from "../voice-platforms/limits";
import { type Deferred, recordOrDefer } from "./pending";
import { platformAdapters } from "../voice-platforms/adapters";
import { archive } from "./archive";
import { type ArchivedEvent, type IntakeOutcome, recordArchived, storeRecording } from "./record-archived";

export type { IntakeEvent } from "../voice-platforms/event";
export { callPayloadKey, recordingKey } from "../voice-platforms/payload-keys";
export { WEBHOOK_MAX_AUDIO_BODY_BYTES, WEBHOOK_MAX_BODY_BYTES } from "../voice-platforms/limits";
export { type ArchivedEvent, type IntakeOutcome, recordArchived } from "./record-archived";
export { firstOfEachConversation } from "./write";


export interface WebhookDelivery {
  /** Whose event it is: its adapter checks the credentials and reads the event (lib/voice-platforms). */
  platform: Platform;
  headers: Headers;
  /** The body exactly as received (held, or as it streams in): the signature covers these bytes. */
  body: Buffer | AsyncIterable<Uint8Array>;
}

/** What an archived payload holds, read back by its platform's adapter (the backlog, lib/reconcile). */
export function readArchived(payloadKey: string, rawBody: Buffer): IntakeEvent {
  return platformAdapters[platformOfPayloadKey(payloadKey)].read(parseJson(rawBody, "replace"), rawBody).event;
}

const geocodingError = (cause: unknown) =>
  new DomainError("GEOCODING_ERROR", "The call was stored but its location could not be geocoded", { cause });

/** The live source: one event, its database step deferred to the backlog while the database is down. */
async function recordLive(event: ArchivedEvent): Promise<IntakeOutcome> {
  const [outcome] = await recordArchived([event]);
  if (outcome.status === "rejected") throw outcome.reason;
  // The platform's retry asks the geocoder again (docs/webhook.md): answered 500 GEOCODING_ERROR.
  if (outcome.value.kind === "stored_unlocated") throw geocodingError(outcome.value.cause);
  return outcome.value;
}

const tooLargeForJson = () =>
  payloadTooLarge(`Request body exceeds ${WEBHOOK_MAX_BODY_BYTES} bytes (only a post_call_audio event may be larger)`);

/**
 * The order that loses nothing, for every platform: verify the signature over the raw bytes
 * (the platform's adapter), parse (the adapter maps its event onto a call), archive the
 * payload (the bytes as received), then store what it says. Once the payload is archived, a
 * database that cannot be reached defers the storing (lib/reconcile) and the delivery succeeds;
 * any other failure answers 500 at the step that failed, and the platform's retry then redoes
 * every step, each one idempotent. A body over
 * WEBHOOK_MAX_BODY_BYTES can only be a recording: it is spooled to disk and decoded on the way
 * (lib/request-body/read.ts), and published only once the signature checked out.
 */
export async function receiveWebhook(delivery: WebhookDelivery): Promise<IntakeOutcome | Deferred> {
  const adapter = platformAdapters[delivery.platform];
  const signature = adapter.startCheck(delivery.headers, getConfig());
  const chunks = Buffer.isBuffer(delivery.body) ? [delivery.body] : delivery.body;
  const body = await readRequestBody(
    chunks,
    { memoryBytes: WEBHOOK_MAX_BODY_BYTES, maxBytes: adapter.maxBodyBytes },
    (chunk) => signature.update(chunk),
  );
  // An unsigned delivery is archived apart and may only create (docs/webhook.md, "Unsigned deliveries").
  const archiveKey = (key: string) => (signature.verified ? key : unsignedKey(key));
  if (body.kind === "memory") {
    signature.verify();
    const read = adapter.read(parseJson(body.bytes, "replace"), body.bytes);
    const event = read.event;
    const payloadKey = archiveKey(read.payloadKey);
    await archive(payloadKey, body.bytes);
    return recordOrDefer(payloadKey, () => recordLive({ parsed: event, payloadKey }));
  }
  // Spooled: only a recording sent in its event (ElevenLabs') may be larger than WEBHOOK_MAX_BODY_BYTES.
  try {
    signature.verify();
    const recording = adapter.readSpooledRecording?.(body.skeleton, body.marker) ?? null;
    if (recording === null || body.decodedPath === null) throw tooLargeForJson();
    const payloadKey = archiveKey(recording.payloadKey);
    await archive(payloadKey, createReadStream(body.rawPath));
    const decodedPath = body.decodedPath;
    return await recordOrDefer(payloadKey, () =>
      storeRecording(recording.conversationId, createReadStream(decodedPath), body.decodedBytes, payloadKey),
    );
  } finally {
    await body.cleanup();
  }
}
