"use client";

import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";

/** What a row's fit was decided for (its width and text), and the decision. */
const decided = new WeakMap<Element, { key: string; wrapped: boolean }>();

/**
 * Decides, for each drawn row of a queue section, whether its address fits on the row's line
 * beside the type, badges, callers and wait; a row where it does not takes a second line for the
 * whole address (class `is-wrapped`, app/globals.css). Measured with the address shown on one line
 * (class `is-measuring`, also while the row's moves replace it under the pointer or focus), all
 * rows at once: two layouts however many rows, and only rows whose width or text changed. Nothing
 * is measured when nothing changed: the width is the list's, as its ResizeObserver last reported
 * it, and a row's text is read without a layout, so a render that changed no row forces none.
 */
function fitRows(scroller: HTMLElement, width: number): void {
  const rows = [...scroller.querySelectorAll<HTMLElement>(".queue-item")].map((row) => ({
    row,
    location: row.querySelector<HTMLElement>(".queue-location"),
    key: `${width}|${row.textContent}`,
  }));
  const changed = rows.filter(({ row, key }) => decided.get(row)?.key !== key);
  for (const { row } of changed) {
    row.classList.remove("is-wrapped");
    row.classList.add("is-measuring");
  }
  for (const { row, location, key } of changed) {
    decided.set(row, { key, wrapped: location !== null && location.scrollWidth > location.clientWidth + 1 });
  }
  for (const { row } of rows) {
    row.classList.remove("is-measuring");
    // React sets the row's class again when its state changes: the decision is applied every time.
    row.classList.toggle("is-wrapped", decided.get(row)?.wrapped ?? false);
  }
}

/** A list watched for its width: fitted again whenever its width changes. */
interface Watched {
  element: HTMLElement;
  observer: ResizeObserver;
  width: number;
}

function watch(element: HTMLElement): Watched {
  const watched: Watched = {
    element,
    width: element.clientWidth,
    observer: new ResizeObserver(([entry]) => {
      watched.width = entry.contentRect.width;
      fitRows(element, watched.width);
    }),
  };
  watched.observer.observe(element);
  return watched;
}

/**
 * Queue rows never cut an address (issue 52 item 6): fitted after every render of the section and
 * whenever its width changes. The virtualiser measures each row, so a row that takes a second line
 * moves the rows below it.
 */
export function useWrappedRows(scroller: RefObject<HTMLElement | null>): void {
  const observed = useRef<Watched | null>(null);
  useLayoutEffect(() => {
    const element = scroller.current;
    // The list comes and goes as its section folds: its current element is the one watched.
    if (observed.current?.element !== element) {
      observed.current?.observer.disconnect();
      observed.current = element ? watch(element) : null;
    }
    if (observed.current) fitRows(observed.current.element, observed.current.width);
  });
  useEffect(() => () => observed.current?.observer.disconnect(), []);
}
