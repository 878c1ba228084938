"use client";

import { useSyncExternalStore } from "react";

/**
 * A choice this browser remembers (localStorage), read by every component that shows it and
 * changed everywhere at once. In private mode a change lasts for the page only.
 */
export function storedSetting<T extends string>(key: string, values: readonly T[], fallback: T) {
  const listeners = new Set<() => void>();
  const read = (): T => {
    try {
      const stored = window.localStorage.getItem(key);
      return values.find((value) => value === stored) ?? fallback;
    } catch {
      return fallback;
    }
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return {
    read,
    set(value: T): void {
      try {
        window.localStorage.setItem(key, value);
      } catch {
        // Private mode: the choice lasts for this page only.
      }
      listeners.forEach((listener) => listener());
    },
    useValue: (): T => useSyncExternalStore(subscribe, read, () => fallback),
  };
}
