import { createHash, randomUUID } from "node:crypto";
import { PLATFORMS, type Platform } from "../vocabulary";
import { normaliseIdentifier } from "../calls/sanitise";

/**
 * Object-storage keys of what intake archives (docs/interface.md): a call's payloads and recording
 * under `calls/<conversation_id>/`, any other event under `events/<type>/`.
 */

/** The first 16 hex digits of the body's SHA-256: names an object after its bytes. */
const bodyHash = (rawBody: Buffer) => createHash("sha256").update(rawBody).digest("hex").slice(0, 16);

/** `20260314_091502` for a Unix time, in UTC. */
function stamp(unixSeconds: number): string {
  const iso = new Date(unixSeconds * 1000).toISOString();
  return `${iso.slice(0, 10).replaceAll("-", "")}_${iso.slice(11, 19).replaceAll(":", "")}`;
}

/** The documented key; its time part is event_timestamp, so a redelivery overwrites the same object. */
export function callPayloadKey(conversationId: string, eventTimestamp: number): string {
  return `calls/${conversationId}/${conversationId}_${stamp(eventTimestamp)}.json`;
}

/** Other event types are archived beside the calls, named by their type. */
export function otherEventKey(type: string, rawBody: Buffer, eventTimestamp?: number, conversationId?: string): string {
  const folder = normaliseIdentifier(type).replace(/[^a-z0-9_]/g, "_").slice(0, 64) || "unknown";
  const name = conversationId ?? bodyHash(rawBody);
  return `events/${folder}/${name}_${stamp(eventTimestamp ?? Math.floor(Date.now() / 1000))}.json`;
}

/**
 * The recording's key, beside the call's payloads: ElevenLabs' decoded MP3, or a Vapi or Retell
 * recording fetched from its link with the extension of the type it was served as (`.wav`, ...).
 */
export function recordingKey(conversationId: string, extension = "mp3"): string {
  return `calls/${conversationId}/${conversationId}_recording.${extension}`;
}


/**
 * A call id of another platform as Mayday's conversation_id: `<platform>:<its id>` (`vapi:…`,
 * `retell:…`), so two platforms' ids never meet, and an archived payload's key names its platform.
 */
export function platformConversationId(platform: Exclude<Platform, "elevenlabs">, callId: string): string {
  return `${platform}:${callId}`;
}

/**
 * Where another platform's call event is archived: beside the call's other payloads, named by the
 * event (Retell's call_ended and call_analyzed of one call are two objects) and its time, or the
 * body's hash when it has none; a redelivery of the same event overwrites its object.
 */
export function platformEventKey(conversationId: string, event: string, eventSeconds: number | null, rawBody: Buffer): string {
  const name = normaliseIdentifier(event).replace(/[^a-z0-9_]/g, "_").slice(0, 64) || "event";
  return `calls/${conversationId}/${conversationId}_${name}_${eventSeconds === null ? bodyHash(rawBody) : stamp(eventSeconds)}.json`;
}

/** The platform whose event an archived payload is (the backlog reads it back with that platform's adapter). */
export function platformOfPayloadKey(payloadKey: string): Platform {
  const match = /^calls\/([a-z]+):/.exec(payloadKey);
  const platform = PLATFORMS.find((name) => name === match?.[1]);
  return platform ?? "elevenlabs";
}

/**
 * Where an unsigned delivery's object goes (docs/webhook.md, "Unsigned deliveries"): a folder
 * `unsigned/` beside the signed ones and a name of its own each time, so it never overwrites what
 * a signed delivery stored. The key is all the backlog keeps of a deferred delivery, so it is what
 * says, live and read back, that the delivery was not verified (arrivedSigned).
 */
export function unsignedKey(key: string): string {
  const folderEnd = key.lastIndexOf("/") + 1;
  const name = key.slice(folderEnd);
  const extension = name.lastIndexOf(".");
  return `${key.slice(0, folderEnd)}unsigned/${name.slice(0, extension)}_${randomUUID().slice(0, 8)}${name.slice(extension)}`;
}

/** False for a key unsignedKey made (`<folder>/<id or type>/unsigned/<name>`): that delivery was not verified. */
export const arrivedSigned = (key: string): boolean => !/^[^/]+\/[^/]+\/unsigned\/[^/]+$/.test(key);
