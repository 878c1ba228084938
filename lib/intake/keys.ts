import { createHash } from "node:crypto";
import { normaliseIdentifier, type ParsedEvent } from "../webhook/payload";

/**
 * Object-storage keys of what intake archives (docs/interface.md): a call's payloads and recording
 * under `calls/<conversation_id>/`, any other event under `events/<type>/`.
 */

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
  const name = conversationId ?? createHash("sha256").update(rawBody).digest("hex").slice(0, 16);
  return `events/${folder}/${name}_${stamp(eventTimestamp ?? Math.floor(Date.now() / 1000))}.json`;
}

/** The recording's key, beside the call's payloads. */
export function recordingKey(conversationId: string): string {
  return `calls/${conversationId}/${conversationId}_recording.mp3`;
}

/** The key an event's raw payload is archived under. */
export function payloadKeyOf(parsed: ParsedEvent, rawBody: Buffer): string {
  if (parsed.kind === "call" || parsed.kind === "failure") {
    return callPayloadKey(parsed.event.data.conversation_id, parsed.event.event_timestamp);
  }
  if (parsed.kind === "audio") {
    return otherEventKey(parsed.event.type, rawBody, parsed.event.event_timestamp, parsed.event.data.conversation_id);
  }
  return otherEventKey(parsed.type, rawBody, parsed.eventTimestamp, parsed.conversationId);
}
