/** Local flat-earth geometry in metres: exact enough within a county, and cheap. */
const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export interface LonLat {
  lon: number;
  lat: number;
}

/** Metres east and north of `origin`. */
function toLocal(origin: LonLat, point: LonLat): [number, number] {
  return [(point.lon - origin.lon) * RAD * EARTH_RADIUS_M * Math.cos(origin.lat * RAD), (point.lat - origin.lat) * RAD * EARTH_RADIUS_M];
}

/** The point `east` and `north` metres from `origin`. */
export function fromLocal(origin: LonLat, east: number, north: number): LonLat {
  return { lon: origin.lon + east / (RAD * EARTH_RADIUS_M * Math.cos(origin.lat * RAD)), lat: origin.lat + north / (RAD * EARTH_RADIUS_M) };
}

export function distanceMeters(a: LonLat, b: LonLat): number {
  return Math.hypot(...toLocal(a, b));
}

const vertex = (line: Float64Array, i: number): LonLat => ({ lon: line[2 * i], lat: line[2 * i + 1] });

/**
 * The point `fraction` (0..1) of the way along a line ([lon, lat, ...] from its start), moved
 * `offsetMeters` to its left (negative: right) as one walks from the start: where a house on that
 * side of the road stands.
 */
export function pointAlong(line: Float64Array, fraction: number, offsetMeters: number): LonLat {
  const vertices = line.length / 2;
  const lengths: number[] = [];
  let total = 0;
  for (let i = 1; i < vertices; i++) {
    const length = distanceMeters(vertex(line, i - 1), vertex(line, i));
    lengths.push(length);
    total += length;
  }
  let remaining = Math.min(Math.max(fraction, 0), 1) * total;
  for (let i = 1; i < vertices; i++) {
    const length = lengths[i - 1];
    if (remaining <= length || i === vertices - 1) {
      const start = vertex(line, i - 1);
      const [east, north] = toLocal(start, vertex(line, i));
      const t = length > 0 ? Math.min(remaining / length, 1) : 0;
      const unit = length > 0 ? [east / length, north / length] : [0, 0];
      return fromLocal(start, east * t - unit[1] * offsetMeters, north * t + unit[0] * offsetMeters);
    }
    remaining -= length;
  }
  return vertex(line, 0);
}

/** A line's first and last vertex, rounded so that lines meeting at a node share the key. */
export function endpointKeys(line: Float64Array): [string, string] {
  const key = (i: number) => `${line[2 * i].toFixed(6)},${line[2 * i + 1].toFixed(6)}`;
  return [key(0), key(line.length / 2 - 1)];
}
