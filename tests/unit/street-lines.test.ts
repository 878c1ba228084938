import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinLines, pixelDegrees, simplifyLine } from "@/lib/geocoding/centre/street-lines";

/** The street map's lines (lib/geocoding/centre/street-lines.ts): joined end to end, simplified to a pixel. */

const pointsOf = (line: readonly number[]) => Array.from({ length: line.length / 2 }, (_, i) => `${line[2 * i]},${line[2 * i + 1]}`);

/** Distance in pixels at `zoom` from a point to a polyline, longitude scaled by cos(latitude) as the rule does. */
function pixelsFrom(x: number, y: number, line: readonly number[], zoom: number): number {
  const scale = Math.cos((line[1] * Math.PI) / 180);
  let best = Infinity;
  for (let i = 0; i + 3 < line.length; i += 2) {
    const [ax, ay, bx, by] = [line[i] * scale, line[i + 1], line[i + 2] * scale, line[i + 3]];
    const [dx, dy] = [bx - ax, by - ay];
    const length = dx * dx + dy * dy;
    const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((x * scale - ax) * dx + (y - ay) * dy) / length));
    best = Math.min(best, Math.hypot(x * scale - ax - t * dx, y - ay - t * dy));
  }
  return best / pixelDegrees(zoom, line[1]);
}

const wanderingLine = fc
  .array(fc.tuple(fc.double({ min: -0.002, max: 0.002, noNaN: true }), fc.double({ min: -0.002, max: 0.002, noNaN: true })), { minLength: 2, maxLength: 60 })
  .map((steps) => {
    const line: number[] = [];
    let [lon, lat] = [-89.6, 39.78];
    for (const [dx, dy] of steps) {
      lon += dx;
      lat += dy;
      line.push(lon, lat);
    }
    return line;
  });

describe("simplifyLine", () => {
  it("keeps both ends and points of the line only, every dropped point within a pixel (and rounding) of what is kept, and more points closer in", () => {
    fc.assert(
      fc.property(wanderingLine, fc.integer({ min: 10, max: 20 }), (line, zoom) => {
        const simple = simplifyLine(line, zoom);
        const round = (value: number) => Math.round(value * 1e6) / 1e6;
        expect(simple.slice(0, 2)).toEqual([round(line[0]), round(line[1])]);
        expect(simple.slice(-2)).toEqual([round(line.at(-2)!), round(line.at(-1)!)]);
        const original = new Set(pointsOf(line.map(round)));
        for (const point of pointsOf(simple)) expect(original.has(point)).toBe(true);
        // 1e-6 degrees of rounding is well under a pixel up to zoom 20 (0.15 m there, 0.11 m of rounding).
        for (let i = 0; i < line.length; i += 2) expect(pixelsFrom(line[i], line[i + 1], simple, zoom)).toBeLessThanOrEqual(1.8);
        expect(simplifyLine(line, zoom + 2).length).toBeGreaterThanOrEqual(simple.length);
      }),
    );
  });
});

describe("joinLines", () => {
  it("joins blocks given in any order and direction into one line through every point once", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), fc.integer({ min: 0, max: 1000 }), (blocks, flips, seed) => {
        const street = Array.from({ length: blocks + 1 }, (_, i) => [-89.6 + i * 0.001, 39.78 + (i % 3) * 0.0001]);
        const pieces = Array.from({ length: blocks }, (_, i) => (flips[i] ? [...street[i + 1], ...street[i]] : [...street[i], ...street[i + 1]]));
        const shuffled = pieces.map((piece, i) => ({ piece, order: (i * 7919 + seed) % 1009 })).sort((a, b) => a.order - b.order).map(({ piece }) => piece);
        const joined = joinLines(shuffled);
        expect(joined).toHaveLength(1);
        const points = pointsOf(joined[0]);
        const expected = street.map(([lon, lat]) => `${lon},${lat}`);
        expect(points[0] === expected[0] ? points : points.reverse()).toEqual(expected);
      }),
    );
  });

  it("keeps apart lines that do not touch, and drops a line of one point", () => {
    expect(joinLines([[0, 0, 1, 0], [2, 0, 3, 0], [5, 5]])).toEqual([[0, 0, 1, 0], [2, 0, 3, 0]]);
  });
});
