"use client";

import { useCallback, useSyncExternalStore } from "react";

/**
 * How a person has sized the dispatch position's panels (docs/dashboard.md, "Layout"): the three
 * columns (queue, incident, map and units) and the right column's two rows (map, units), each a
 * share in percent. Kept per person in this browser's localStorage (`mayday.layout.<person id>`), so
 * two dispatchers who take turns at one desk each find their own sizes; in private mode a change
 * lasts for the page only.
 */
export interface PanelSizes {
  columns: readonly [number, number, number];
  rows: readonly [number, number];
}

export const DEFAULT_PANEL_SIZES: PanelSizes = { columns: [34, 30, 36], rows: [46, 54] };

/** No panel takes less than this share of the pair a handle divides (their minimum widths hold too). */
export const MIN_SHARE = 15;

const storageKey = (personId: string) => `mayday.layout.${personId}`;
const listeners = new Set<() => void>();
/** Where a choice lives when localStorage refuses it (private mode). */
const memory = new Map<string, string>();
let cache: { key: string; raw: string | null; sizes: PanelSizes } | null = null;

const shares = (value: unknown, length: number): value is number[] =>
  Array.isArray(value) && value.length === length && value.every((share) => typeof share === "number" && share >= 1 && share <= 98);

function parse(raw: string | null): PanelSizes {
  if (raw === null) return DEFAULT_PANEL_SIZES;
  try {
    const stored = JSON.parse(raw) as Partial<Record<keyof PanelSizes, unknown>>;
    if (shares(stored.columns, 3) && shares(stored.rows, 2)) {
      return { columns: [stored.columns[0], stored.columns[1], stored.columns[2]], rows: [stored.rows[0], stored.rows[1]] };
    }
  } catch {
    // A value this version cannot read: the defaults.
  }
  return DEFAULT_PANEL_SIZES;
}

function readRaw(key: string): string | null {
  try {
    return window.localStorage.getItem(key) ?? memory.get(key) ?? null;
  } catch {
    return memory.get(key) ?? null;
  }
}

/** The same object while the stored text is unchanged: React compares snapshots by identity. */
function read(personId: string): PanelSizes {
  const key = storageKey(personId);
  const raw = readRaw(key);
  if (cache?.key !== key || cache.raw !== raw) cache = { key, raw, sizes: parse(raw) };
  return cache.sizes;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePanelSizes(personId: string): [PanelSizes, (sizes: PanelSizes) => void] {
  const sizes = useSyncExternalStore(subscribe, () => read(personId), () => DEFAULT_PANEL_SIZES);
  const set = useCallback(
    (next: PanelSizes) => {
      const raw = JSON.stringify(next);
      try {
        window.localStorage.setItem(storageKey(personId), raw);
      } catch {
        memory.set(storageKey(personId), raw);
      }
      listeners.forEach((listener) => listener());
    },
    [personId],
  );
  return [sizes, set];
}

/**
 * Two neighbouring shares after the handle between them moved to `percent` of their pair
 * (clamped to MIN_SHARE..100-MIN_SHARE).
 */
function divide(pair: readonly [number, number], percent: number): [number, number] {
  const total = pair[0] + pair[1];
  const first = (Math.min(100 - MIN_SHARE, Math.max(MIN_SHARE, percent)) / 100) * total;
  return [Math.round(first * 10) / 10, Math.round((total - first) * 10) / 10];
}

/** The first of two shares as a percent of their pair: a handle's position. */
const shareOf = (pair: readonly [number, number]) => Math.round((pair[0] / (pair[0] + pair[1])) * 100);

/** The handles: between the queue and the incident (0), the incident and the right column (1), the map and the units ("rows"). */
export type PanelHandle = 0 | 1 | "rows";

const pairOf = (sizes: PanelSizes, handle: PanelHandle): [number, number] =>
  handle === "rows" ? [sizes.rows[0], sizes.rows[1]] : [sizes.columns[handle], sizes.columns[handle + 1]];

/** Where a handle stands: the first panel's share of the two it divides, in percent. */
export const handlePercent = (sizes: PanelSizes, handle: PanelHandle) => shareOf(pairOf(sizes, handle));

/** The sizes after a handle moved to `percent`: only the two panels it divides change. */
export function moveHandle(sizes: PanelSizes, handle: PanelHandle, percent: number): PanelSizes {
  const [first, second] = divide(pairOf(sizes, handle), percent);
  if (handle === "rows") return { ...sizes, rows: [first, second] };
  const columns: [number, number, number] = [...sizes.columns];
  columns[handle] = first;
  columns[handle + 1] = second;
  return { ...sizes, columns };
}
