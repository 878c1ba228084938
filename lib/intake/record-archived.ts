import { NOTHING_REPORTED, storeLiveCall } from "../calls/write/live";
import { storeFailedCall } from "../calls/write/write-calls";
import { rememberControlUrl } from "../calls/control-urls";
import { withDatabase } from "../db/with-database";
import type { GeocodeResult } from "../geocoding/geocoder";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled } from "../incidents/grouping";
import { log } from "../log";
import type { ObjectBody } from "../storage/get-object-store";
import { archive } from "./archive";
import { storeWithOthers } from "./write";
import type { IntakeEvent } from "../voice-platforms/event";
import { arrivedSigned, recordingKey, unsignedKey } from "../voice-platforms/payload-keys";
import { archiveRecordingsSoon } from "./recording-archiver";
import { linkRecording } from "./recording-link";
import { type QueuedLink, queueRecordingFetches } from "./recording-queue";
import { type LocatedCall, locateCall } from "./locate";

/** An event whose raw payload is archived under `payloadKey`: what both sources of intake hand over. */
export interface ArchivedEvent {
  parsed: IntakeEvent;
  payloadKey: string;
}

export type IntakeOutcome =
  | { kind: "stored"; conversationId: string; payloadKey: string; geocode: GeocodeResult | null }
  /** Stored without new coordinates: the geocoder failed (`cause`), and the call waits for the grouper. */
  | { kind: "stored_unlocated"; conversationId: string; payloadKey: string; cause: unknown }
  | { kind: "recording"; conversationId: string; payloadKey: string; recordingKey: string }
  /** A live event: the call on the line (or ended) and its transcript so far; `changed` false once the post-call event came. */
  | { kind: "live"; conversationId: string; payloadKey: string; changed: boolean }
  | { kind: "ignored"; type: string; payloadKey: string };

/**
 * Stores a decoded recording (ElevenLabs' MP3) and links it; only ever called once the signature
 * checked out. An unsigned one is stored apart and linked only to a conversation that has
 * neither a call nor a recording yet.
 */
export async function storeRecording(conversationId: string, audio: ObjectBody, sizeBytes: number, payloadKey: string): Promise<IntakeOutcome> {
  const verified = arrivedSigned(payloadKey);
  const key = verified ? recordingKey(conversationId) : unsignedKey(recordingKey(conversationId));
  const contentType = "audio/mpeg";
  await archive(key, audio, contentType);
  await withDatabase((db) => linkRecording(db, { conversationId, key, contentType, sizeBytes }, verified));
  log.info({ conversationId, recordingKey: key, sizeBytes }, "webhook recording stored");
  return { kind: "recording", conversationId, payloadKey, recordingKey: key };
}

function storedCallOutcome({ call, payloadKey, geocode, geocodeFailure }: LocatedCall): IntakeOutcome {
  const { conversationId } = call;
  if (geocodeFailure !== undefined) {
    // Stored, waiting for the grouper: it groups the call by its text.
    if (groupingEnabled()) groupSoon();
    log.warn({ conversationId, payloadKey, err: geocodeFailure }, "webhook call stored without coordinates: geocoder failed");
    return { kind: "stored_unlocated", conversationId, payloadKey, cause: geocodeFailure };
  }
  // An analysis that followed its call (Retell's call_analyzed) marks the call for the grouper (lib/calls/write/received.ts).
  if (call.hasAnalysis && call.platform !== "elevenlabs" && groupingEnabled()) groupSoon();
  log.info({ conversationId, platform: call.platform, payloadKey, geocode: geocode?.precision ?? null }, "webhook call stored");
  return { kind: "stored", conversationId, payloadKey, geocode };
}

async function recordOther(parsed: Exclude<IntakeEvent, { kind: "call" }>, payloadKey: string): Promise<IntakeOutcome> {
  switch (parsed.kind) {
    case "audio": {
      const audio = Buffer.from(parsed.recording.base64Audio, "base64");
      return storeRecording(parsed.recording.conversationId, audio, audio.length, payloadKey);
    }
    case "failure": {
      const { call } = parsed;
      await storeFailedCall(call, payloadKey, arrivedSigned(payloadKey));
      log.info({ conversationId: call.conversationId, payloadKey, reason: call.failureReason }, "webhook failed call stored");
      return { kind: "stored", conversationId: call.conversationId, payloadKey, geocode: null };
    }
    case "live": {
      const { controlUrl, ...call } = parsed.call;
      // A live event never makes a call without the platform's credential (none of Vapi's or Retell's is unsigned).
      if (!arrivedSigned(payloadKey)) return { kind: "ignored", type: `${call.platform} live event`, payloadKey };
      // No location, so nothing to place: the call waits for a report or the analysis (lib/calls/write/live.ts).
      const written = await storeLiveCall({ ...NOTHING_REPORTED, ...call }, undefined);
      // Kept for a dispatcher's instruction or transfer (lib/voice-platforms/vapi/control.ts), apart from the call's own write.
      if (written !== undefined) await rememberControlUrl(call.conversationId, controlUrl);
      log.info({ conversationId: call.conversationId, payloadKey, ended: call.ended, turns: call.transcript?.turns.length ?? 0, changed: written !== undefined }, "live event");
      return { kind: "live", conversationId: call.conversationId, payloadKey, changed: written !== undefined };
    }
    case "other":
      log.info({ type: parsed.type, payloadKey }, "webhook event of an unknown type archived");
      return { kind: "ignored", type: parsed.type, payloadKey };
  }
}

/** The platforms' links to the calls' audio (Vapi, Retell), to be archived (lib/intake/recording-queue.ts). */
function recordingLinks(events: readonly ArchivedEvent[]): QueuedLink[] {
  return events.flatMap(({ parsed }) =>
    (parsed.kind === "call" || parsed.kind === "failure") && parsed.call.recordingUrl !== null
      ? [{ conversationId: parsed.call.conversationId, url: parsed.call.recordingUrl, fallbackUrl: parsed.call.recordingFallbackUrl }]
      : []);
}

/**
 * Queues the links before their calls are stored (while they are geocoded), so that a stop in
 * between loses none, and wakes the archiver, which fetches the audio in the background. A queue
 * that fails only costs the archived audio, never the call: logged.
 */
async function queueRecordings(links: QueuedLink[]): Promise<void> {
  if (links.length === 0) return;
  try {
    await withDatabase((db) => queueRecordingFetches(db, links));
    archiveRecordingsSoon();
  } catch (error) {
    log.warn({ err: error, conversations: links.map((link) => link.conversationId) }, "recording links not queued for archiving");
  }
}

/**
 * The stages after the archive, the same for a live delivery (one event) and for the backlog of
 * payloads accepted while the database was down (a batch): calls are located (./locate.ts,
 * geocoded; their recording links queued meanwhile), then written together (./write.ts, the group
 * commit: one statement, each call in its incident); a failed call or a recording is stored on its own; another type is
 * only logged. Each write is idempotent (same key, same record), so repeating an event changes
 * nothing. Answers each event's outcome, in order; a geocoder that failed is an outcome
 * (`stored_unlocated`), not an error.
 */
export async function recordArchived(events: readonly ArchivedEvent[]): Promise<PromiseSettledResult<IntakeOutcome>[]> {
  const [located] = await Promise.all([
    Promise.allSettled(events.map(({ parsed, payloadKey }) => (parsed.kind === "call" ? locateCall(parsed.call, payloadKey) : undefined))),
    queueRecordings(recordingLinks(events)),
  ]);
  const calls = located.flatMap((entry) => (entry.status === "fulfilled" && entry.value ? [entry.value] : []));
  const stored = storeWithOthers(calls);
  let next = 0;
  return Promise.allSettled(
    events.map(async ({ parsed, payloadKey }, index) => {
      const location = located[index];
      if (location.status === "rejected") throw location.reason;
      if (parsed.kind !== "call") return recordOther(parsed, payloadKey);
      await stored[next++];
      return storedCallOutcome(location.value!);
    }),
  );
}
