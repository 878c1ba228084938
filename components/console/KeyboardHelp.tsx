"use client";

import { useEffect, useState } from "react";
import { DRAWERS, type DrawerName, drawerToggle } from "./Drawer";

/** The dashboard's keys (docs/dashboard.md, "Keyboard"); `?` shows this list. */
const DASHBOARD_KEYS: readonly { keys: string; does: string }[] = [
  { keys: "j or ↓", does: "Next incident in the queue" },
  { keys: "k or ↑", does: "Previous incident in the queue" },
  { keys: "Enter", does: "Open the focused incident beside the queue (focus moves to it), and its place on the map" },
  { keys: "d, e", does: "Move the focused or open incident to Dispatched, En route (with no unit on it: say why)" },
  { keys: "r, f", does: "Close the focused or open incident as Resolved, Failed: a digit chooses how it ended" },
  { keys: "z", does: "Undo the move just made (for 10 seconds)" },
  { keys: "o", does: "In the open incident: open its first call" },
  { keys: "c", does: "In the open incident: correct its first (or open) call's location; saving returns to the queue" },
  { keys: "m", does: "In the open incident: choose an incident to merge into it" },
  { keys: "g", does: "In the open incident: merge its nearest possible duplicate into it" },
  { keys: "x", does: "In the open incident: dismiss its nearest possible duplicate (two emergencies)" },
  { keys: "l", does: "Focus the latest alert in the New strip; again, the next one (Enter opens it)" },
  { keys: "a", does: "Acknowledge the focused or open incident's alert (for every dispatcher)" },
  { keys: "u", does: "With an incident open: focus its first recommended unit's Send (Tab: the next one)" },
  { keys: "p", does: "With an incident open: focus Send the plan, every unit its response plan asks for (Enter sends them)" },
  { keys: "s", does: "On a unit: send it to the open incident" },
  { keys: "i", does: "With an incident open: focus its first unit (Tab: the next one)" },
  { keys: "e, o, t, h, v, x", does: "On a unit: it is en route, on scene, transporting, at hospital, available, out of service" },
  { keys: "n", does: "Take a new call (on a unit: a new incident it reports itself); in the form Ctrl+Enter saves, Alt+J joins the nearest possible duplicate, Esc closes it keeping the draft" },
  { keys: "w", does: "Write a note on the open incident (Ctrl+Enter keeps it)" },
  { keys: "h", does: "Open or close the history (calls, chart, CSV) over the incident and map" },
  { keys: "t", does: "Open or close training (simulation, exercise) over the incident and map" },
  { keys: "/", does: "Search the history by location (opens the history)" },
  { keys: "?", does: "Show or hide these keys" },
  { keys: "Esc", does: "Hide these keys, or close the open new call, history or training" },
];

/** Keys typed into a field are the field's. */
export function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

function queueTitles(): HTMLButtonElement[] {
  return [...document.querySelectorAll<HTMLButtonElement>(".queue-list .queue-title")];
}

/** The drawer a key opens or closes, through its header button. */
const DRAWER_KEYS = Object.fromEntries(Object.entries(DRAWERS).map(([name, { key }]) => [key, name as DrawerName]));

/** The status a key moves the focused queue entry to: its entry's own button does the move. */
const STATUS_KEYS: Record<string, string> = { d: "dispatched", e: "enroute", r: "resolved", f: "failed" };

/**
 * The dashboard's keyboard: moves through the incident queue (j/k anywhere, arrows once the focus
 * is in the queue, so they still scroll the page elsewhere), moves the focused entry's or the open
 * incident's incident along the workflow (d, e, r, f) by pressing its own status button, which is
 * there only when the workflow and the person's role allow the move (a close asks its disposition,
 * the focus stays), undoes the move just made (z); focuses the open incident's units (i) and its
 * nearest recommended unit (u); focuses the open incident's note (w) or the history's location
 * search (/, opening the history), opens or closes the new call (n; on a unit, its own report),
 * history (h) and training (t) drawers (Esc closes them), focuses the latest alert and then
 * each next one (l), acknowledges the focused or open incident's alert (a) and shows the list of keys (?).
 * Enter on a queue entry is its button's own; o, c and m are the open incident's (IncidentDetail).
 */
export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const titles = queueTitles();
      const at = titles.indexOf(document.activeElement as HTMLButtonElement);
      const move = (step: number) => {
        if (titles.length === 0) return;
        const next = at < 0 ? (step > 0 ? 0 : titles.length - 1) : Math.min(titles.length - 1, Math.max(0, at + step));
        titles[next].focus();
        titles[next].scrollIntoView({ block: "nearest" });
        event.preventDefault();
      };
      const focusField = (selector: string) => {
        const field = document.querySelector<HTMLElement>(selector);
        if (!field) return;
        field.focus();
        event.preventDefault();
      };
      // `n` on a unit: the new incident is that unit's own report.
      const fromUnit = event.key === "n" ? (document.activeElement as HTMLElement | null)?.closest(".unit-row")?.querySelector<HTMLButtonElement>(".action-unit-incident") : null;
      if (fromUnit) {
        event.preventDefault();
        fromUnit.click();
        return;
      }
      const drawer = DRAWER_KEYS[event.key];
      if (drawer) {
        drawerToggle(drawer)?.click();
        event.preventDefault();
        return;
      }
      const status = STATUS_KEYS[event.key];
      if (status) {
        // The incident's own buttons: its queue entry's, or the open incident's (not a call's inside it).
        const scope = (document.activeElement as HTMLElement | null)?.closest(".queue-item, .incident-detail");
        const entry = scope?.matches(".queue-item") ? scope : null;
        const button = scope?.querySelector<HTMLButtonElement>(entry ? `.action-${status}` : `:scope > .status-actions .action-${status}`);
        if (!button) return;
        event.preventDefault();
        // The focus stays where the person is: a close asks for its disposition first, and never
        // moves on to the next row, where a second key would move another incident.
        button.click();
        return;
      }
      switch (event.key) {
        case "j":
          return move(1);
        case "k":
          return move(-1);
        case "ArrowDown":
          return at >= 0 ? move(1) : undefined;
        case "ArrowUp":
          return at >= 0 ? move(-1) : undefined;
        case "l": {
          // The "New" strip's latest alert, then each next one: a new alert is two keys from anywhere to open.
          const alerts = [...document.querySelectorAll<HTMLButtonElement>(".alert-strip .alert-open")];
          if (alerts.length === 0) return;
          const next = alerts[(alerts.indexOf(document.activeElement as HTMLButtonElement) + 1) % alerts.length];
          next.focus();
          next.scrollIntoView({ block: "nearest" });
          event.preventDefault();
          return;
        }
        case "a": {
          // The focused row's, alert's or open incident's acknowledgement, through its button in the "New" strip.
          const scope = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(".queue-item, .alert-entry, .incident-detail");
          const id = scope?.dataset.incidentId;
          const button = id ? document.querySelector<HTMLButtonElement>(`.alert-strip .action-acknowledge[data-incident-id="${CSS.escape(id)}"]`) : null;
          if (!button) return;
          event.preventDefault();
          button.click();
          return;
        }
        case "u":
          // The open incident's nearest recommended unit (the server's order), else the board's first free one.
          return focusField(document.querySelector(".incident-recommended .action-send-unit") ? ".incident-recommended .action-send-unit" : ".unit-list .unit-available .action-send-unit");
        case "p":
          // The response plan's units in one press: focused first, so a stray key sends nothing.
          return focusField(".incident-plan .action-send-plan");
        case "i":
          return focusField(".incident-units .unit-row button");
        case "z": {
          // The latest notice's Undo: the move just made, while it is offered.
          const undo = [...document.querySelectorAll<HTMLButtonElement>(".notices .action-undo")].at(-1);
          if (!undo) return;
          event.preventDefault();
          undo.click();
          return;
        }
        case "s": {
          const button = (document.activeElement as HTMLElement | null)?.closest(".unit-row, .recommended-unit")?.querySelector<HTMLButtonElement>(".action-send-unit");
          if (!button) return;
          event.preventDefault();
          button.click();
          return;
        }
        case "w":
          return focusField('.incident-notes textarea[name="note"]');
        case "/":
          // The history opens first (its button renders it at once), then its field takes the focus.
          if (document.getElementById("drawer-history")?.hidden) drawerToggle("history")?.click();
          return focusField('.history input[name="location"]');
        case "?":
          setOpen((shown) => !shown);
          event.preventDefault();
          return;
        case "Escape":
          setOpen(false);
          document.querySelector<HTMLButtonElement>(".drawer:not([hidden]) .drawer-close")?.click();
          return;
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  if (!open) return null;
  return (
    <div className="keyboard-help" role="dialog" aria-label="Keyboard shortcuts">
      <h2>Keys</h2>
      <dl>
        {DASHBOARD_KEYS.map(({ keys, does }) => (
          <div key={keys}>
            <dt><kbd>{keys}</kbd></dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={() => setOpen(false)}>Close</button>
    </div>
  );
}
