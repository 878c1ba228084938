/**
 * The road network (issue 54 acceptance 3, docs/units.md "Travel time on the roads"): built from
 * the synthetic county's centrelines (bench/gis-county.ts: ten grid towns of 71 x 71 streets, 99,400
 * segments) and from a county ten times its size (994,000), its build time and memory; then on the
 * county, the travel times of 500 units to an incident, one search each, timed:
 *
 *   node --expose-gc --import tsx bench/road-network.ts
 *
 * The incident and the units are drawn in one town, where no other town's streets cross its own (a
 * unit there would be on a road with no way to the incident), 20 warm-up searches, then 200 timed: p50, p95, max. It checks that every unit has a
 * road time and that no way on the roads is shorter than the straight line.
 */
import { distanceMeters, fromLocal } from "../lib/geocoding/centre/geometry";
import { type RoadNetwork, RoadNetworkBuilder } from "../lib/geocoding/centre/road-network";
import { centrelines, type TownOptions, townOf } from "../tests/support/gis-town";
import { random } from "../tests/support/calls";
import { COUNTY } from "./gis-county";
import { loadAverage, percentile } from "./stats";

const UNITS = 500;
const WARM_UP = 20;
const RUNS = 200;
const TOWN_METRES = (COUNTY.grid - 1) * 150;
/** How far the town to the west reaches into the bench's town. */
const OVERLAP_METRES = 2_100;

const heapMb = () => {
  globalThis.gc?.();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.arrayBuffers) / 1e6;
};

/** The network of the county's lines: the build alone is timed (the lines are made first, as the database's rows would arrive). */
function build(options: TownOptions): { network: RoadNetwork; segments: number; ms: number; heldMb: number } {
  const before = heapMb();
  const rows = [...centrelines(options)].map((line) => ({ ...streetless, coordinates: line.coordinates.flat(), roadClass: null, speedLimit: null, oneWay: null }));
  const started = performance.now();
  const builder = new RoadNetworkBuilder();
  for (const row of rows) builder.add(row);
  const network = builder.build()!;
  const ms = performance.now() - started;
  const segments = rows.length;
  rows.length = 0;
  return { network, segments, ms, heldMb: heapMb() - before };
}

const streetless = {
  fromAddrL: null, toAddrL: null, fromAddrR: null, toAddrR: null, parityL: null, parityR: null,
  stPreDir: null, stPreTyp: null, stName: "", stPosTyp: null, stPosDir: null, community: null, postCode: null, state: null,
};

function searches(network: RoadNetwork) {
  const next = random(54);
  // The county's towns lie 0.1 degree apart, closer than their 10.5 km width east-west: the last
  // town of a row, east of the overlap with its neighbour, is its streets alone.
  const town = townOf(4, COUNTY);
  const point = () => fromLocal(town.origin, OVERLAP_METRES + next() * (TOWN_METRES - OVERLAP_METRES), next() * TOWN_METRES);
  const timings: number[] = [];
  let unrouted = 0;
  let shorter = 0;
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const incident = point();
    const units = Array.from({ length: UNITS }, point);
    const started = performance.now();
    const times = network.travelTimes(incident, units);
    if (run >= WARM_UP) timings.push(performance.now() - started);
    times.forEach((time, i) => {
      if (!time) unrouted++;
      // No way on the roads is shorter than the straight line.
      else if (time.metres < distanceMeters(units[i], incident) - 0.5) shorter++;
    });
  }
  const sorted = timings.sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted.at(-1)!, unrouted, shorter };
}

function main() {
  if (!globalThis.gc) console.log("(run with node --expose-gc for the memory figures)");
  console.log(`load average before: ${loadAverage().join(" ")}`);
  const county = build(COUNTY);
  console.log(`county: ${county.segments} segments, ${county.network.nodeCount} nodes, built in ${county.ms.toFixed(0)} ms, ` +
    `network ${(county.network.bytes / 1e6).toFixed(1)} MB (${(county.network.bytes / county.segments).toFixed(0)} bytes a segment), heap and buffers held ${county.heldMb.toFixed(1)} MB`);
  const timed = searches(county.network);
  console.log(`travel times of ${UNITS} units, ${RUNS} searches: p50 ${timed.p50.toFixed(2)} ms, p95 ${timed.p95.toFixed(2)} ms, max ${timed.max.toFixed(2)} ms; ` +
    `units without a road time ${timed.unrouted}, road shorter than the straight line ${timed.shorter}`);
  const large = build({ ...COUNTY, towns: COUNTY.towns * 10 });
  console.log(`ten counties: ${large.segments} segments, ${large.network.nodeCount} nodes, built in ${large.ms.toFixed(0)} ms, ` +
    `network ${(large.network.bytes / 1e6).toFixed(1)} MB, heap and buffers held ${large.heldMb.toFixed(1)} MB`);
  console.log(`load average after: ${loadAverage().join(" ")}`);
}

main();
