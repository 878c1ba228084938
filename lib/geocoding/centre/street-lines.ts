/**
 * The street map's lines (lib/geocoding/centre/street-map.ts), pure: a street's centrelines joined
 * end to end, then simplified to what a pixel at the zoom can show. A line is [lon, lat, lon, lat, ...].
 */

const pointKey = (line: readonly number[], at: number) => `${line[at]},${line[at + 1]}`;

/** `line`'s points in the other direction. */
function reversed(line: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = line.length - 2; i >= 0; i -= 2) out.push(line[i], line[i + 1]);
  return out;
}

/**
 * The lines joined where one ends exactly where another starts or ends (a street's blocks), each
 * line used once; a line of fewer than two points is dropped. Few long lines draw as one path each
 * and carry the street's name along their length.
 */
export function joinLines(lines: readonly (readonly number[])[]): number[][] {
  const usable = lines.filter((line) => line.length >= 4);
  const byEnd = new Map<string, number[]>();
  usable.forEach((line, index) => {
    for (const key of [pointKey(line, 0), pointKey(line, line.length - 2)]) {
      const at = byEnd.get(key);
      if (at) at.push(index);
      else byEnd.set(key, [index]);
    }
  });
  const used = new Uint8Array(usable.length);
  /** An unused line with an end at `key`, oriented to start there. */
  const next = (key: string): number[] | undefined => {
    for (const index of byEnd.get(key) ?? []) {
      if (used[index]) continue;
      used[index] = 1;
      const line = usable[index];
      return pointKey(line, 0) === key ? [...line] : reversed(line);
    }
    return undefined;
  };
  const joined: number[][] = [];
  usable.forEach((line, index) => {
    if (used[index]) return;
    used[index] = 1;
    let chain = [...line];
    for (let after = next(pointKey(chain, chain.length - 2)); after; after = next(pointKey(chain, chain.length - 2))) {
      chain = chain.concat(after.slice(2));
    }
    for (let before = next(pointKey(chain, 0)); before; before = next(pointKey(chain, 0))) {
      chain = reversed(before).concat(chain.slice(2));
    }
    joined.push(chain);
  });
  return joined;
}

/** Degrees of latitude (and of longitude times cos(latitude)) one pixel spans at `zoom` (Web Mercator, 256-pixel tiles). */
export function pixelDegrees(zoom: number, latitude: number): number {
  return (360 * Math.cos((latitude * Math.PI) / 180)) / (256 * 2 ** zoom);
}

/**
 * Douglas-Peucker: the fewest points within `tolerance` pixels of the line at `zoom` (distances
 * measured with longitude scaled by the cosine of the line's latitude, so a pixel is a pixel
 * either way); the first and last points always stay. Coordinates rounded to 1e-6 degrees (11 cm).
 */
export function simplifyLine(line: readonly number[], zoom: number, tolerance = 1): number[] {
  const count = line.length / 2;
  if (count <= 2) return line.map(round);
  const scale = Math.cos((line[1] * Math.PI) / 180);
  const limit = (tolerance * pixelDegrees(zoom, line[1])) ** 2;
  const keep = new Uint8Array(count);
  keep[0] = keep[count - 1] = 1;
  const stack: [number, number][] = [[0, count - 1]];
  while (stack.length > 0) {
    const [first, last] = stack.pop()!;
    const ax = line[2 * first] * scale, ay = line[2 * first + 1];
    const dx = line[2 * last] * scale - ax, dy = line[2 * last + 1] - ay;
    const length = dx * dx + dy * dy;
    let farthest = -1;
    let distance = limit;
    for (let i = first + 1; i < last; i++) {
      const px = line[2 * i] * scale - ax, py = line[2 * i + 1] - ay;
      const along = length === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / length));
      const ex = px - along * dx, ey = py - along * dy;
      const away = ex * ex + ey * ey;
      if (away > distance) {
        distance = away;
        farthest = i;
      }
    }
    if (farthest < 0) continue;
    keep[farthest] = 1;
    stack.push([first, farthest], [farthest, last]);
  }
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (keep[i]) out.push(round(line[2 * i]), round(line[2 * i + 1]));
  return out;
}

const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;
