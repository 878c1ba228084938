"use client";

import { useEffect, useState } from "react";

/** The dashboard's keys (docs/dashboard.md, "Keyboard"); `?` shows this list. */
const DASHBOARD_KEYS: readonly { keys: string; does: string }[] = [
  { keys: "j or ↓", does: "Next incident in the queue" },
  { keys: "k or ↑", does: "Previous incident in the queue" },
  { keys: "Enter", does: "Open the focused incident: its calls, and its place on the map" },
  { keys: "/", does: "Search the history by location" },
  { keys: "?", does: "Show or hide these keys" },
  { keys: "Esc", does: "Hide these keys" },
];

/** Keys typed into a field are the field's. */
function typing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

function queueTitles(): HTMLButtonElement[] {
  return [...document.querySelectorAll<HTMLButtonElement>(".queue-list .queue-title")];
}

/**
 * The dashboard's keyboard: moves through the incident queue (j/k anywhere, arrows once the focus
 * is in the queue, so they still scroll the page elsewhere), focuses the history's location
 * search (/) and shows the list of keys (?). Enter on a queue entry is its button's own.
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
      switch (event.key) {
        case "j":
          return move(1);
        case "k":
          return move(-1);
        case "ArrowDown":
          return at >= 0 ? move(1) : undefined;
        case "ArrowUp":
          return at >= 0 ? move(-1) : undefined;
        case "/": {
          const search = document.querySelector<HTMLInputElement>('.history input[name="location"]');
          if (!search) return;
          search.focus();
          event.preventDefault();
          return;
        }
        case "?":
          setOpen((shown) => !shown);
          event.preventDefault();
          return;
        case "Escape":
          setOpen(false);
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
