import { describe, expect, it } from "vitest";
import { DEFAULT_PANEL_SIZES, handlePercent, MIN_SHARE, moveHandle } from "@/components/console/panel-sizes";

/** The dashboard's panel handles (components/console/panel-sizes.ts; docs/dashboard.md, "Layout"). */
describe("a panel handle", () => {
  it("stands at the first panel's share of the two it divides", () => {
    expect(handlePercent(DEFAULT_PANEL_SIZES, 0)).toBe(53);
    expect(handlePercent(DEFAULT_PANEL_SIZES, 1)).toBe(45);
    expect(handlePercent(DEFAULT_PANEL_SIZES, "rows")).toBe(46);
  });

  it("moves only the two panels it divides, their sum kept", () => {
    const moved = moveHandle(DEFAULT_PANEL_SIZES, 1, 60);
    expect(moved.columns[0]).toBe(DEFAULT_PANEL_SIZES.columns[0]);
    expect(moved.columns[1] + moved.columns[2]).toBeCloseTo(DEFAULT_PANEL_SIZES.columns[1] + DEFAULT_PANEL_SIZES.columns[2], 5);
    expect(handlePercent(moved, 1)).toBe(60);
    expect(moved.rows).toEqual(DEFAULT_PANEL_SIZES.rows);
    const rows = moveHandle(DEFAULT_PANEL_SIZES, "rows", 30);
    expect(rows.rows).toEqual([30, 70]);
    expect(rows.columns).toEqual(DEFAULT_PANEL_SIZES.columns);
  });

  it("never gives a panel less than the minimum share of its pair", () => {
    expect(handlePercent(moveHandle(DEFAULT_PANEL_SIZES, 0, -40), 0)).toBe(MIN_SHARE);
    expect(handlePercent(moveHandle(DEFAULT_PANEL_SIZES, 0, 140), 0)).toBe(100 - MIN_SHARE);
  });
});
