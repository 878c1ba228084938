"use client";

import type { KeyboardEvent, ReactNode } from "react";

/**
 * What sits one key away from the dispatch position (docs/dashboard.md, "Layout"): a new call
 * (CallTakingForm.tsx; its button heads the incident column, the header being full at 1280 px), the
 * history (table, chart, CSV) and training (simulation, exercise). Each opens over the incident, map
 * and units columns and leaves the queue and its alerts in view.
 */
export const DRAWERS = {
  call: { label: "New call", key: "n" },
  history: { label: "History", key: "h" },
  training: { label: "Training", key: "t" },
} as const;
export type DrawerName = keyof typeof DRAWERS;


export const drawerToggle = (name: DrawerName) => document.querySelector<HTMLButtonElement>(`[data-drawer-toggle="${name}"]`);

/** The button that opens and closes one drawer (its key does the same). */
export function DrawerToggle({ name, open, onToggle }: { name: DrawerName; open: DrawerName | null; onToggle: (name: DrawerName) => void }) {
  return (
    <button
      type="button"
      data-drawer-toggle={name}
      aria-expanded={open === name}
      aria-controls={`drawer-${name}`}
      aria-keyshortcuts={DRAWERS[name].key}
      title={`${DRAWERS[name].label} (key ${DRAWERS[name].key})`}
      onClick={() => onToggle(name)}
    >
      {DRAWERS[name].label}
    </button>
  );
}

/** The header's buttons of the history and training drawers (keys h and t do the same). */
export function DrawerToggles({ open, onToggle }: { open: DrawerName | null; onToggle: (name: DrawerName) => void }) {
  return (
    <nav className="drawer-toggles" aria-label="History and training">
      <DrawerToggle name="history" open={open} onToggle={onToggle} />
      <DrawerToggle name="training" open={open} onToggle={onToggle} />
    </nav>
  );
}

/**
 * One drawer: kept in the page while closed (a simulation's progress, the history's filters and
 * page survive closing it), hidden from view and from the keyboard. Esc inside it closes it.
 */
export function Drawer({ name, open, onClose, children }: { name: DrawerName; open: boolean; onClose: () => void; children: ReactNode }) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    event.preventDefault();
    onClose();
  };
  return (
    <div id={`drawer-${name}`} className={`drawer drawer-${name}`} data-drawer={name} hidden={!open} tabIndex={-1} onKeyDown={onKeyDown}>
      <div className="drawer-bar">
        <button type="button" className="drawer-close" onClick={onClose}>
          Close {DRAWERS[name].label.toLowerCase()} <kbd>Esc</kbd>
        </button>
      </div>
      {children}
    </div>
  );
}
