import Flatbush from "flatbush";
import FlatQueue from "flatqueue";
import type { RoadCentrelineRow } from "./fields";
import { distanceMeters, endpointKeys, type LonLat } from "./geometry";
import { lookupTable } from "../../lookup-table";

/**
 * The centre's roads as a network for travel times (docs/units.md, "Travel time on the roads"):
 * nodes where centrelines share an end, each centreline an edge with its length and time, one way
 * where its OneWay says so. Typed arrays only (a compressed sparse row of each node's incoming
 * edges), so a million segments cost tens of megabytes, not a million objects. One search outward
 * from the incident, over the edges reversed, settles the time from every node to the incident:
 * every unit's time in one pass (Dijkstra, its queue flatqueue's), stopped once every unit's road
 * is settled. Points (an incident, a unit's position or station) snap to the nearest centreline
 * through a Flatbush index of the lines' boxes.
 *
 * The graph libraries that were read (ngraph.path, geojson-path-finder) search one pair at a time,
 * and graphology-shortest-path's one-to-all search keeps every node's whole path: 500 units would
 * be 500 searches, or a path per node, where one pass of times is what the recommendation needs.
 */

/**
 * Speed on a road of each NENA RoadClass without a SpeedLimit, km/h (docs/units.md gives the
 * reasons): about what an emergency vehicle averages on such a road, crossings and bends included.
 * null: not a road a vehicle drives (the network leaves it out).
 */
export const ROAD_CLASS_SPEEDS_KMH: Readonly<Record<string, number | null>> = lookupTable({
  primary: 80,
  secondary: 60,
  local: 40,
  ramp: 50,
  "service drive": 25,
  private: 25,
  alley: 15,
  "parking lot": 10,
  "vehicular trail": 15,
  other: 30,
  walkway: null,
  stairway: null,
  trail: null,
  "bridle path": null,
});
/** A centreline with neither SpeedLimit nor a known RoadClass: a local street's speed. */
export const DEFAULT_ROAD_SPEED_KMH = 40;
/** A point further than this from every centreline is off the network: the straight line answers for it. */
export const SNAP_MAX_METRES = 300;
/** The speed from a point to its road (a drive, a yard, a car park), km/h. */
export const OFF_ROAD_SPEED_KMH = 15;

const KMH_PER_MPH = 1.609344;
const FORWARD = 1;
const BACKWARD = 2;
const BOTH = FORWARD | BACKWARD;
/** Lines a snap considers, nearest boxes first (a box's distance is a lower bound of the line's). */
const SNAP_CANDIDATES = 8;
/** A point this close to a segment's end is at its node: it leaves or reaches it whichever way the segment runs. */
const AT_NODE_METRES = 1;
/** Degrees of latitude per metre, for the snap index's search radius. */
const DEGREES_PER_METRE = 1 / 111_195;

/** A road's speed in km/h from its SpeedLimit (miles per hour) or its class; null: not driven. */
export function roadSpeedKmh(road: Pick<RoadCentrelineRow, "roadClass" | "speedLimit">): number | null {
  const byClass = road.roadClass === null ? undefined : ROAD_CLASS_SPEEDS_KMH[road.roadClass.trim().toLowerCase()];
  if (byClass === null) return null;
  if (road.speedLimit !== null && road.speedLimit > 0) return road.speedLimit * KMH_PER_MPH;
  return byClass ?? DEFAULT_ROAD_SPEED_KMH;
}

/** The time and road distance from a point to the incident. */
export interface RoadTravel {
  seconds: number;
  metres: number;
}

/** Where a point meets the network: a segment, how far along it (metres from its start), and how far off it. */
interface Snap {
  segment: number;
  along: number;
  off: number;
}

/** Reads centrelines one by one (the index's load streams them) and makes the network at the end. */
export class RoadNetworkBuilder {
  private readonly nodeIds = new Map<string, number>();
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  private readonly metres: number[] = [];
  private readonly speeds: number[] = [];
  private readonly directions: number[] = [];
  private readonly vertexStart: number[] = [0];
  private readonly vertices: number[] = [];

  private node(key: string): number {
    let id = this.nodeIds.get(key);
    if (id === undefined) {
      id = this.nodeIds.size;
      this.nodeIds.set(key, id);
    }
    return id;
  }

  add(row: RoadCentrelineRow): void {
    const speed = roadSpeedKmh(row);
    if (speed === null || row.coordinates.length < 4) return;
    const line = Float64Array.from(row.coordinates);
    const [start, end] = endpointKeys(line);
    let length = 0;
    for (let i = 2; i < line.length; i += 2) {
      length += distanceMeters({ lon: line[i - 2], lat: line[i - 1] }, { lon: line[i], lat: line[i + 1] });
    }
    this.from.push(this.node(start));
    this.to.push(this.node(end));
    this.metres.push(length);
    this.speeds.push(speed);
    this.directions.push(row.oneWay === "FT" ? FORWARD : row.oneWay === "TF" ? BACKWARD : BOTH);
    for (const value of line) this.vertices.push(value);
    this.vertexStart.push(this.vertices.length);
  }

  /** The network, or undefined when no centreline is a road a vehicle drives. */
  build(): RoadNetwork | undefined {
    return this.from.length === 0 ? undefined : new RoadNetwork(this.nodeIds.size, {
      from: Int32Array.from(this.from),
      to: Int32Array.from(this.to),
      metres: Float64Array.from(this.metres),
      speeds: Float32Array.from(this.speeds),
      directions: Uint8Array.from(this.directions),
      vertexStart: Int32Array.from(this.vertexStart),
      vertices: Float64Array.from(this.vertices),
    });
  }
}

interface Segments {
  from: Int32Array;
  to: Int32Array;
  metres: Float64Array;
  /** km/h */
  speeds: Float32Array;
  directions: Uint8Array;
  /** Segment i's [lon, lat, ...] are vertices[vertexStart[i] .. vertexStart[i + 1]). */
  vertexStart: Int32Array;
  vertices: Float64Array;
}

const secondsAt = (metres: number, kmh: number) => (metres / 1000 / kmh) * 3600;

export class RoadNetwork {
  /** Each node's incoming edges: incoming[start[v] .. start[v + 1]) are the segments that reach v, entered from `enteredFrom`. */
  private readonly incomingStart: Int32Array;
  private readonly incoming: Int32Array;
  private readonly enteredFrom: Int32Array;
  private readonly index: Flatbush;

  constructor(
    readonly nodeCount: number,
    private readonly segments: Segments,
  ) {
    const { from, to, directions, vertexStart, vertices } = segments;
    const count = from.length;
    const degree = new Int32Array(nodeCount + 1);
    for (let s = 0; s < count; s++) {
      if (directions[s] & FORWARD) degree[to[s] + 1]++;
      if (directions[s] & BACKWARD) degree[from[s] + 1]++;
    }
    for (let v = 0; v < nodeCount; v++) degree[v + 1] += degree[v];
    this.incomingStart = degree.slice();
    this.incoming = new Int32Array(degree[nodeCount]);
    this.enteredFrom = new Int32Array(degree[nodeCount]);
    const fill = degree.slice();
    for (let s = 0; s < count; s++) {
      if (directions[s] & FORWARD) {
        this.incoming[fill[to[s]]] = s;
        this.enteredFrom[fill[to[s]]++] = from[s];
      }
      if (directions[s] & BACKWARD) {
        this.incoming[fill[from[s]]] = s;
        this.enteredFrom[fill[from[s]]++] = to[s];
      }
    }
    this.index = new Flatbush(count);
    for (let s = 0; s < count; s++) {
      let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = vertexStart[s]; i < vertexStart[s + 1]; i += 2) {
        west = Math.min(west, vertices[i]);
        east = Math.max(east, vertices[i]);
        south = Math.min(south, vertices[i + 1]);
        north = Math.max(north, vertices[i + 1]);
      }
      this.index.add(west, south, east, north);
    }
    this.index.finish();
  }

  get segmentCount(): number {
    return this.segments.from.length;
  }

  /** The bytes the network holds (its typed arrays and its snap index). */
  get bytes(): number {
    const arrays = [...Object.values(this.segments), this.incomingStart, this.incoming, this.enteredFrom];
    return arrays.reduce((sum, array) => sum + array.byteLength, 0) + this.index.data.byteLength;
  }

  /** The nearest centreline to a point within SNAP_MAX_METRES, and where on it; undefined: off the network. */
  private snap(point: LonLat): Snap | undefined {
    const { vertexStart, vertices } = this.segments;
    const reach = SNAP_MAX_METRES * DEGREES_PER_METRE;
    const candidates = this.index.neighbors(point.lon, point.lat, SNAP_CANDIDATES, reach / Math.cos((point.lat * Math.PI) / 180));
    let best: Snap | undefined;
    for (const segment of candidates) {
      let walked = 0;
      for (let i = vertexStart[segment] + 2; i < vertexStart[segment + 1]; i += 2) {
        const a = { lon: vertices[i - 2], lat: vertices[i - 1] };
        const b = { lon: vertices[i], lat: vertices[i + 1] };
        const length = distanceMeters(a, b);
        const t = length === 0 ? 0 : Math.max(0, Math.min(1, projection(a, b, point)));
        const off = distanceMeters({ lon: a.lon + (b.lon - a.lon) * t, lat: a.lat + (b.lat - a.lat) * t }, point);
        if (off <= SNAP_MAX_METRES && (best === undefined || off < best.off)) best = { segment, along: walked + t * length, off };
        walked += length;
      }
    }
    return best;
  }

  /**
   * The time from each origin to the incident on the roads, by one search outward from the
   * incident; null for an origin off the network or with no road to it (and for all of them when
   * the incident is off the network). An origin's time is its walk to its road at
   * OFF_ROAD_SPEED_KMH, along the road to the incident's road, then from there to the incident.
   */
  travelTimes(incident: LonLat, origins: readonly (LonLat | null)[]): (RoadTravel | null)[] {
    const target = this.snap(incident);
    if (!target) return origins.map(() => null);
    const { from, to, metres, speeds, directions } = this.segments;
    const seconds = new Float64Array(this.nodeCount).fill(Infinity);
    const road = new Float64Array(this.nodeCount);
    const settled = new Uint8Array(this.nodeCount);
    const queue = new FlatQueue<number>();
    const reach = (node: number, time: number, distance: number) => {
      if (time >= seconds[node]) return;
      seconds[node] = time;
      road[node] = distance;
      queue.push(node, time);
    };
    const t = target.segment;
    // Into the incident's segment from its start (moving forward) or from its end (moving backward);
    // an incident at a segment's end is at that node, whichever way the segment runs.
    if (directions[t] & FORWARD || target.along <= AT_NODE_METRES) reach(from[t], secondsAt(target.along, speeds[t]), target.along);
    if (directions[t] & BACKWARD || metres[t] - target.along <= AT_NODE_METRES) reach(to[t], secondsAt(metres[t] - target.along, speeds[t]), metres[t] - target.along);

    const snaps = origins.map((origin) => (origin ? this.snap(origin) : undefined));
    const wanted = new Set<number>();
    for (const snap of snaps) if (snap) wanted.add(from[snap.segment]).add(to[snap.segment]);
    let waiting = wanted.size;
    while (queue.length > 0 && waiting > 0) {
      const node = queue.pop()!;
      if (settled[node]) continue;
      settled[node] = 1;
      if (wanted.has(node)) waiting--;
      for (let k = this.incomingStart[node]; k < this.incomingStart[node + 1]; k++) {
        const segment = this.incoming[k];
        reach(this.enteredFrom[k], seconds[node] + secondsAt(metres[segment], speeds[segment]), road[node] + metres[segment]);
      }
    }

    const offRoad = (metresOff: number) => secondsAt(metresOff, OFF_ROAD_SPEED_KMH);
    return snaps.map((snap) => {
      if (!snap) return null;
      const s = snap.segment;
      const options: RoadTravel[] = [];
      // Back to the segment's start (moving backward), or on to its end (moving forward); at an end, that node.
      if (directions[s] & BACKWARD || snap.along <= AT_NODE_METRES) options.push({ seconds: seconds[from[s]] + secondsAt(snap.along, speeds[s]), metres: road[from[s]] + snap.along });
      if (directions[s] & FORWARD || metres[s] - snap.along <= AT_NODE_METRES) options.push({ seconds: seconds[to[s]] + secondsAt(metres[s] - snap.along, speeds[s]), metres: road[to[s]] + metres[s] - snap.along });
      // On the incident's own segment, the way it runs.
      if (s === t && (directions[s] & (snap.along <= target.along ? FORWARD : BACKWARD))) {
        const between = Math.abs(target.along - snap.along);
        options.push({ seconds: secondsAt(between, speeds[s]), metres: between });
      }
      const best = options.filter((option) => Number.isFinite(option.seconds)).sort((a, b) => a.seconds - b.seconds)[0];
      if (!best) return null;
      return { seconds: best.seconds + offRoad(snap.off) + offRoad(target.off), metres: best.metres + snap.off + target.off };
    });
  }
}

/** Where `point` falls along a→b, as a fraction of it (flat within a segment's few hundred metres). */
function projection(a: LonLat, b: LonLat, point: LonLat): number {
  const scale = Math.cos((a.lat * Math.PI) / 180);
  const dx = (b.lon - a.lon) * scale;
  const dy = b.lat - a.lat;
  const length = dx * dx + dy * dy;
  return length === 0 ? 0 : (((point.lon - a.lon) * scale) * dx + (point.lat - a.lat) * dy) / length;
}
