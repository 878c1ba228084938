"use client";

import { useCallback, useSyncExternalStore } from "react";
import type { LocationCandidate } from "@/lib/call-taking/schema";

/**
 * The call a person is taking, as far as they got (docs/dashboard.md, "Taking a call"): kept per
 * person in this browser's localStorage (`mayday.call-draft.<person id>`), as panel sizes are, so a
 * form closed half-way or a page reloaded finds it again, and a colleague at the same desk does not
 * get it; saving clears it. In private mode it lasts for the page only.
 */
export interface CallDraft {
  /** The call's id, made when the form first opened: a save retried with it stores the call once. */
  conversation_id: string;
  /** When the form first opened (Unix seconds): the call's time, from which call processing counts. */
  form_opened_at: number;
  callback_number: string;
  caller_name: string;
  /** The location as typed. */
  location: string;
  /** The candidate chosen among the typed text's (`query`: the text it was found for, which the save sends). */
  chosen: { query: string; candidate: LocationCandidate } | null;
  emergency_type: string;
  severity: string;
  narrative: string;
  /** The possible duplicate the person joined the call to; null: an incident of its own. */
  incident_id: string | null;
  /** The unit that reported it itself ("+ Incident" on the unit board); null: a caller's call. */
  unit: { id: string; call_sign: string } | null;
}

/** A version 4 UUID from the browser's random source (crypto.randomUUID needs a secure context, which a centre's LAN may not give). */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** When the form last opened: a draft begun from then on dates from that moment, not from its first keystroke. */
let formOpenedAt = Date.now();
export function markFormOpened(): void {
  formOpenedAt = Date.now();
}

export function newDraft(openedAt = formOpenedAt): CallDraft {
  return {
    conversation_id: randomUuid(),
    form_opened_at: openedAt / 1000,
    callback_number: "",
    caller_name: "",
    location: "",
    chosen: null,
    emergency_type: "",
    severity: "",
    narrative: "",
    incident_id: null,
    unit: null,
  };
}

const storageKey = (personId: string) => `mayday.call-draft.${personId}`;
const listeners = new Set<() => void>();
/** Where a draft lives when localStorage refuses it (private mode). */
const memory = new Map<string, string>();
let cache: { key: string; raw: string | null; draft: CallDraft | null } | null = null;

function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

function parse(raw: string | null): CallDraft | null {
  if (raw === null) return null;
  try {
    const stored = JSON.parse(raw) as Partial<CallDraft>;
    // A draft this version cannot read is dropped rather than half-restored.
    if (typeof stored.conversation_id !== "string" || typeof stored.form_opened_at !== "number") return null;
    return { ...newDraft(), ...stored };
  } catch {
    return null;
  }
}

/** The same object while the stored text is unchanged: React compares snapshots by identity. */
function read(personId: string): CallDraft | null {
  const key = storageKey(personId);
  const raw = readRaw(key);
  if (cache?.key !== key || cache.raw !== raw) cache = { key, raw, draft: parse(raw) };
  return cache.draft;
}

function write(personId: string, draft: CallDraft | null): void {
  const key = storageKey(personId);
  memory.delete(key);
  try {
    if (draft === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // Private mode: the draft lasts for this page only.
    if (draft !== null) memory.set(key, JSON.stringify(draft));
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A change to the person's draft (a new draft begins with the first change), without following it (the dashboard's "+ Incident"). */
export function changeCallDraft(personId: string, patch: Partial<CallDraft>): void {
  write(personId, { ...(read(personId) ?? newDraft()), ...patch });
}

/** The person's draft (null: none), followed as it changes; a change to it and its removal once saved. */
export function useCallDraft(personId: string): {
  draft: CallDraft | null;
  change: (patch: Partial<CallDraft>) => void;
  clear: () => void;
} {
  const draft = useSyncExternalStore(subscribe, () => read(personId), () => null);
  const change = useCallback((patch: Partial<CallDraft>) => changeCallDraft(personId, patch), [personId]);
  const clear = useCallback(() => write(personId, null), [personId]);
  return { draft, change, clear };
}
