import { geocodeWithCentreIndex } from "../geocoding/centre/geocode";
import { distanceMeters } from "../geocoding/centre/geometry";
import type { CentreIndex } from "../geocoding/centre/centre-index";
import { locateOnScenarioStreets, SCENARIO_HOUSE_NUMBERS } from "../geocoding/scenario-streets";
import type { CallPlacement, GeocodeResult } from "../geocoding/types";
import { type Scenario, SEVERITIES } from "../scenarios/scenario-list";
import type { SimulatedCall } from "../vocabulary";
import { DUPLICATE_SHARE } from "./duplicate-share";
import { pick, pickWeighted, randomIntBetween, type RandomSource } from "./random";
import { type SummaryTemplate, templateSummary } from "./templates";

export interface GenerateOptions {
  scenario: Scenario;
  numCalls: number;
  /** Drives every generated value except ids and times: a seeded source reproduces a run. */
  random: RandomSource;
  now: Date;
  /** The integer part of call ids; never drawn from `random`, so seeded runs still get new ids. */
  callNumber: () => number;
  /** Share of calls (0..1) reporting an event an earlier call of the request reported; default DUPLICATE_SHARE. */
  duplicateShare?: number;
  /** The centre's own GIS data, when loaded: it places the addresses it knows (docs/simulation.md). */
  centre?: CentreIndex;
  /** The summaries' shapes; the specification's three (lib/simulation/templates.ts) by default. */
  summaryTemplates?: readonly SummaryTemplate[];
}

/**
 * A duplicate caller is placed within this many millionths of a degree of its event's point on
 * each axis (at most about 25 m away: inside an interpolated address's 30 m).
 */
const DUPLICATE_OFFSET_MICRODEGREES = 150;
/**
 * A duplicate comes this many seconds after its event's first call. Calls are never after the
 * request: an event's first call is moved back by its last duplicate's delay.
 */
const DUPLICATE_DELAY_SECS = { min: 1, max: 120 } as const;

export interface GeneratedCalls {
  calls: SimulatedCall[];
  /** Per call, the event it reports (the call_id of the event's first call): grouping's ground truth. */
  events: string[];
  /** Per call, how exact its point is. */
  placements: CallPlacement[];
}

/** Points stay within this many millionths of a degree of their area's centre on each axis. */
const MAX_OFFSET_MICRODEGREES = 20_000;

/**
 * Where a generated address is: the centre's GIS data when it knows it (its address point, or a
 * point on its centreline), else the scenario street set (lib/geocoding/scenario-streets.ts). The
 * geocoder asks them in the same order, so the address spoken back lands on the same point.
 */
function locate(address: string, centre: CentreIndex | undefined): GeocodeResult {
  const located = (centre && geocodeWithCentreIndex(centre, address)) ?? locateOnScenarioStreets(address);
  if (!located) throw new Error(`The scenario street set does not place ${address}`);
  return located;
}

export function formatCallId(scenarioId: string, unixSeconds: number, callNumber: number): string {
  return `${scenarioId.toUpperCase()}-${unixSeconds}-${callNumber}`;
}

const micro = (degrees: number) => Math.round(degrees * 1e6);

/** A point within `spread` millionths of a degree of `reported`, still within the area's ±0.02° of its centre. */
function nearCoordinate(random: RandomSource, reported: string, center: number, spread: number): string {
  const near = micro(Number(reported)) + randomIntBetween(random, -spread, spread);
  const bounded = Math.min(micro(center) + MAX_OFFSET_MICRODEGREES, Math.max(micro(center) - MAX_OFFSET_MICRODEGREES, near));
  return (bounded / 1e6).toFixed(6);
}

/** How many addresses a new event draws while the centre's data places them outside the area's square. */
const OUTSIDE_AREA_DRAWS = 20;

const withinArea = (center: { lat: number; lon: number }, point: GeocodeResult) =>
  Math.abs(micro(point.latitude) - micro(center.lat)) <= MAX_OFFSET_MICRODEGREES &&
  Math.abs(micro(point.longitude) - micro(center.lon)) <= MAX_OFFSET_MICRODEGREES;

/** `+1`, an area code of the scenario, then 7 digits whose first is 2-9 (a valid NANP number). */
function callerPhone(random: RandomSource, areaCodes: readonly string[]): string {
  const exchange = randomIntBetween(random, 2, 9);
  const line = String(randomIntBetween(random, 0, 999_999)).padStart(6, "0");
  return `+1${pick(random, areaCodes)}${exchange}${line}`;
}

/** Generates `numCalls` calls. Pure: no I/O, every random choice comes from `options`. */
export function generateCalls(options: GenerateOptions): SimulatedCall[] {
  return generateCallsWithEvents(options).calls;
}

/** A call before its id and time, which depend on the calls after it (its event's duplicates). */
type DraftCall = Omit<SimulatedCall, "call_id" | "timestamp" | "created_at">;

/**
 * The calls and the event each reports. A duplicate (share `duplicateShare`) reports the event of
 * an earlier call of the request, picked uniformly (so big events draw more callers): at the same
 * address, coordinates within about 25 m of the event's first call, the same type, a later time,
 * its own caller. No call is later than `now`: an event's first call happens as long before the
 * request as its last duplicate comes after it, and a call nobody repeats happens at `now`.
 */
export function generateCallsWithEvents(options: GenerateOptions): GeneratedCalls {
  const { scenario, numCalls, random, now } = options;
  const duplicateShare = options.duplicateShare ?? DUPLICATE_SHARE;
  const placesTaken = new Set<string>();
  const drafts: DraftCall[] = [];
  /** Per call, the index of its event's first call, and its delay after it in seconds. */
  const eventOf: number[] = [];
  const delayOf: number[] = [];
  const placementOf: CallPlacement[] = [];

  for (let index = 0; index < numCalls; index++) {
    // No draw at all when there are no duplicates: such a run stays what it was before duplicates.
    const first =
      duplicateShare > 0 && index > 0 && random() < duplicateShare ? eventOf[randomIntBetween(random, 0, index - 1)] : null;
    const event = first === null ? null : drafts[first];
    const area = event ? scenario.areas.find((candidate) => candidate.name === event.location.area)! : pick(random, scenario.areas);
    let address: string;
    let latitude: string;
    let longitude: string;
    let placement: CallPlacement;
    let place: string;
    // Rule 1: address + coordinates rounded to 4 decimals are distinct within a request. A new
    // event draws another address when its address was taken. A duplicate has its event's address
    // and about 16 places within 25 m of its point, which a large event of a high duplicate share
    // fills: every 20 clashes widen its circle, so drawing always ends.
    let clashes = 0;
    for (;;) {
      if (event) {
        const spread = DUPLICATE_OFFSET_MICRODEGREES * (1 + Math.floor(clashes++ / 20));
        const eventPlacement = placementOf[first!];
        address = event.location.address;
        latitude = nearCoordinate(random, event.location.latitude, area.center.lat, spread);
        longitude = nearCoordinate(random, event.location.longitude, area.center.lon, spread);
        const away = distanceMeters(
          { lat: Number(latitude), lon: Number(longitude) },
          { lat: Number(event.location.latitude), lon: Number(event.location.longitude) },
        );
        // The caller stands near the event: its point is as exact as the event's, widened by the step away.
        placement = { ...eventPlacement, uncertaintyMeters: Math.max(eventPlacement.uncertaintyMeters, Math.ceil(away)) };
      } else {
        address = `${randomIntBetween(random, SCENARIO_HOUSE_NUMBERS.min, SCENARIO_HOUSE_NUMBERS.max)} ${pick(random, area.streets)}, ${area.name}`;
        const located = locate(address, options.centre);
        latitude = located.latitude.toFixed(6);
        longitude = located.longitude.toFixed(6);
        placement = { precision: located.precision, uncertaintyMeters: located.uncertaintyMeters, source: located.source };
        // The centre's data may place an area's street beyond its ±0.02° square: another address, a few times over.
        if (!withinArea(area.center, located) && clashes++ < OUTSIDE_AREA_DRAWS) continue;
      }
      place = `${address}|${Number(latitude).toFixed(4)}|${Number(longitude).toFixed(4)}`;
      if (!placesTaken.has(place)) break;
    }
    placesTaken.add(place);
    placementOf.push(placement);

    eventOf.push(first ?? index);
    delayOf.push(event ? randomIntBetween(random, DUPLICATE_DELAY_SECS.min, DUPLICATE_DELAY_SECS.max) : 0);
    const kind = event
      ? scenario.emergencies.find((candidate) => candidate.type === event.emergency_type)!
      : pickWeighted(random, scenario.emergencies, (candidate) => candidate.weight);
    const severity = pickWeighted(random, SEVERITIES, (level) => kind.severity[level]);
    const description = pick(random, kind.descriptions);
    drafts.push({
      location: { latitude, longitude, address, area: area.name },
      emergency_type: kind.type,
      severity,
      description,
      summary: templateSummary(random, description, address, options.summaryTemplates),
      duration_secs: randomIntBetween(random, 45, 600),
      caller_phone: callerPhone(random, scenario.phoneAreaCodes),
      status: "active",
      simulation: true,
      scenario: scenario.id,
      scenario_name: scenario.name,
    });
  }

  // Each event ends at the request: its first call is as early as its last duplicate is late.
  const leadOf = new Map<number, number>();
  eventOf.forEach((first, index) => leadOf.set(first, Math.max(leadOf.get(first) ?? 0, delayOf[index])));
  const idsTaken = new Set<string>();
  const calls = drafts.map((draft, index): SimulatedCall => {
    const at = new Date(now.getTime() - 1000 * (leadOf.get(eventOf[index])! - delayOf[index]));
    const timestamp = Math.floor(at.getTime() / 1000);
    let callId: string;
    do callId = formatCallId(scenario.id, timestamp, options.callNumber());
    while (idsTaken.has(callId));
    idsTaken.add(callId);
    return { call_id: callId, timestamp, created_at: at.toISOString(), ...draft };
  });
  return { calls, events: eventOf.map((first) => calls[first].call_id), placements: placementOf };
}
