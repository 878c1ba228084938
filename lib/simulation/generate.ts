import { type Scenario, SEVERITIES } from "../scenarios";
import type { SimulatedCall } from "../vocabulary";
import { DUPLICATE_SHARE } from "./duplicate-share";
import { pick, pickWeighted, randomIntBetween, type RandomSource } from "./random";
import { templateSummary } from "./templates";

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
}

/** A duplicate is placed within this many millionths of a degree of its event on each axis (< 100 m). */
const DUPLICATE_OFFSET_MICRODEGREES = 600;
/**
 * A duplicate comes this many seconds after its event's first call. Calls are never after the
 * request: an event's first call is moved back by its last duplicate's delay.
 */
const DUPLICATE_DELAY_SECS = { min: 1, max: 120 } as const;

export interface GeneratedCalls {
  calls: SimulatedCall[];
  /** Per call, the event it reports (the call_id of the event's first call): grouping's ground truth. */
  events: string[];
}

/** Offsets are drawn in millionths of a degree, so coordinates are exact 6-decimal values. */
const MAX_OFFSET_MICRODEGREES = 20_000;

export function formatCallId(scenarioId: string, unixSeconds: number, callNumber: number): string {
  return `${scenarioId.toUpperCase()}-${unixSeconds}-${callNumber}`;
}

function offsetCoordinate(random: RandomSource, center: number): string {
  const micro = Math.round(center * 1e6) + randomIntBetween(random, -MAX_OFFSET_MICRODEGREES, MAX_OFFSET_MICRODEGREES);
  return (micro / 1e6).toFixed(6);
}

/** A point within `spread` millionths of a degree of `reported`, still within the area's ±0.02° of its centre. */
function nearCoordinate(random: RandomSource, reported: string, center: number, spread: number): string {
  const centre = Math.round(center * 1e6);
  const near = Math.round(Number(reported) * 1e6) + randomIntBetween(random, -spread, spread);
  const micro = Math.min(centre + MAX_OFFSET_MICRODEGREES, Math.max(centre - MAX_OFFSET_MICRODEGREES, near));
  return (micro / 1e6).toFixed(6);
}

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
 * address, coordinates within about 70 m of the event's first call, the same type, a later time,
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

  for (let index = 0; index < numCalls; index++) {
    // No draw at all when there are no duplicates: such a run stays what it was before duplicates.
    const first =
      duplicateShare > 0 && index > 0 && random() < duplicateShare ? eventOf[randomIntBetween(random, 0, index - 1)] : null;
    const event = first === null ? null : drafts[first];
    const area = event ? scenario.areas.find((candidate) => candidate.name === event.location.area)! : pick(random, scenario.areas);
    let address: string;
    let latitude: string;
    let longitude: string;
    let place: string;
    // Rule 1: address + coordinates rounded to 4 decimals are distinct within a request. A clash
    // is rare for a new event (about 10^12 combinations per area). A duplicate has its event's
    // address and at most about 170 places within 100 m of it (fewer at the area's edge), which a
    // large event of a high duplicate share fills: every 20 clashes widen its circle, so drawing
    // always ends.
    let clashes = 0;
    do {
      if (event) {
        const spread = DUPLICATE_OFFSET_MICRODEGREES * (1 + Math.floor(clashes++ / 20));
        address = event.location.address;
        latitude = nearCoordinate(random, event.location.latitude, area.center.lat, spread);
        longitude = nearCoordinate(random, event.location.longitude, area.center.lon, spread);
      } else {
        address = `${randomIntBetween(random, 100, 2999)} ${pick(random, area.streets)}, ${area.name}`;
        latitude = offsetCoordinate(random, area.center.lat);
        longitude = offsetCoordinate(random, area.center.lon);
      }
      place = `${address}|${Number(latitude).toFixed(4)}|${Number(longitude).toFixed(4)}`;
    } while (placesTaken.has(place));
    placesTaken.add(place);

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
      summary: templateSummary(random, description, address),
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
  return { calls, events: eventOf.map((first) => calls[first].call_id) };
}
