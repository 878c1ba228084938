"use client";

import { type KeyboardEvent, type PointerEvent, useRef } from "react";
import { handlePercent, MIN_SHARE, moveHandle, type PanelHandle, type PanelSizes } from "./panel-sizes";

/** One arrow key moves a handle this many points of its pair; Page Up/Down five times as many. */
const STEP = 2;

/**
 * Each handle's name, direction and grid area, and the grid tracks of the two panels it divides
 * (its own track lies between them; app/globals.css, "Layout").
 */
const HANDLES = {
  0: { label: "Width of the queue beside the incident", axis: "columns", tracks: [0, 2], area: "queue" },
  1: { label: "Width of the incident beside the map and units", axis: "columns", tracks: [2, 4], area: "incident" },
  rows: { label: "Height of the map above the units", axis: "rows", tracks: [0, 2], area: "map" },
} as const satisfies Record<PanelHandle, { label: string; axis: "columns" | "rows"; tracks: readonly [number, number]; area: string }>;

/**
 * A handle between two panels of the dashboard's grid (docs/dashboard.md, "Layout"): dragged with
 * the pointer, or focused and moved with the arrow keys (Page Up/Down further, Home and End to the
 * limits). Its value is the first panel's share of the pair, in percent. The pair's size in
 * pixels is read from the grid, so a drag follows the pointer however the grid divides the rest.
 */
export function PanelResizer({ handle, sizes, onResize }: { handle: PanelHandle; sizes: PanelSizes; onResize: (sizes: PanelSizes) => void }) {
  const { label, axis, tracks, area } = HANDLES[handle];
  const percent = handlePercent(sizes, handle);
  const onChange = (next: number) => onResize(moveHandle(sizes, handle, next));
  const drag = useRef<{ from: number; percent: number; pair: number } | null>(null);
  const coordinate = (event: PointerEvent) => (axis === "columns" ? event.clientX : event.clientY);
  const pairSize = (handle: HTMLElement) => {
    const grid = handle.parentElement;
    if (!grid) return 0;
    const style = getComputedStyle(grid);
    const sizes = (axis === "columns" ? style.gridTemplateColumns : style.gridTemplateRows).split(" ").map(Number.parseFloat);
    return (sizes[tracks[0]] ?? 0) + (sizes[tracks[1]] ?? 0);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const pair = pairSize(event.currentTarget);
    if (pair <= 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { from: coordinate(event), percent, pair };
    event.preventDefault();
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    onChange(start.percent + ((coordinate(event) - start.from) / start.pair) * 100);
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const back = axis === "columns" ? "ArrowLeft" : "ArrowUp";
    const forward = axis === "columns" ? "ArrowRight" : "ArrowDown";
    const moves: Record<string, number> = {
      [back]: percent - STEP,
      [forward]: percent + STEP,
      PageUp: percent - STEP * 5,
      PageDown: percent + STEP * 5,
      Home: MIN_SHARE,
      End: 100 - MIN_SHARE,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onChange(next);
  };
  return (
    <div
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-orientation={axis === "columns" ? "vertical" : "horizontal"}
      aria-valuenow={Math.round(percent)}
      aria-valuemin={MIN_SHARE}
      aria-valuemax={100 - MIN_SHARE}
      className={`resizer resizer-${axis} resizer-${area}`}
      title={`${label}: drag, or focus and use the arrow keys`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
