import { type Scenario, SEVERITIES, type Severity } from "../scenarios";
import { pick, pickWeighted, randomIntBetween, type RandomSource } from "./random";
import { templateSummary } from "./templates";

/** A generated call, field for field the "simulated call record" of docs/interface.md. */
export interface SimulatedCall {
  call_id: string;
  timestamp: number;
  created_at: string;
  location: { latitude: string; longitude: string; address: string; area: string };
  emergency_type: string;
  severity: Severity;
  description: string;
  summary: string;
  duration_secs: number;
  caller_phone: string;
  status: "active";
  simulation: true;
  scenario: string;
  scenario_name: string;
}

export interface GenerateOptions {
  scenario: Scenario;
  numCalls: number;
  /** Drives every generated value except ids and times: a seeded source reproduces a run. */
  random: RandomSource;
  now: Date;
  /** The integer part of call ids; never drawn from `random`, so seeded runs still get new ids. */
  callNumber: () => number;
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

/** `+1`, an area code of the scenario, then 7 digits whose first is 2-9 (a valid NANP number). */
function callerPhone(random: RandomSource, areaCodes: readonly string[]): string {
  const exchange = randomIntBetween(random, 2, 9);
  const line = String(randomIntBetween(random, 0, 999_999)).padStart(6, "0");
  return `+1${pick(random, areaCodes)}${exchange}${line}`;
}

/** Generates `numCalls` calls. Pure: no I/O, every random choice comes from `options`. */
export function generateCalls(options: GenerateOptions): SimulatedCall[] {
  const { scenario, numCalls, random, now } = options;
  const timestamp = Math.floor(now.getTime() / 1000);
  const createdAt = now.toISOString();
  const placesTaken = new Set<string>();
  const idsTaken = new Set<string>();
  const calls: SimulatedCall[] = [];

  for (let index = 0; index < numCalls; index++) {
    const area = pick(random, scenario.areas);
    let address: string;
    let latitude: string;
    let longitude: string;
    let place: string;
    // Rule 1: address + coordinates rounded to 4 decimals are distinct within a request.
    // A clash is rare (about 10^12 combinations per area), so drawing again ends quickly.
    do {
      address = `${randomIntBetween(random, 100, 2999)} ${pick(random, area.streets)}, ${area.name}`;
      latitude = offsetCoordinate(random, area.center.lat);
      longitude = offsetCoordinate(random, area.center.lon);
      place = `${address}|${Number(latitude).toFixed(4)}|${Number(longitude).toFixed(4)}`;
    } while (placesTaken.has(place));
    placesTaken.add(place);

    const kind = pickWeighted(random, scenario.emergencies, (candidate) => candidate.weight);
    const severity = pickWeighted(random, SEVERITIES, (level) => kind.severity[level]);
    const description = pick(random, kind.descriptions);
    const summary = templateSummary(random, description, address);
    const durationSecs = randomIntBetween(random, 45, 600);
    const phone = callerPhone(random, scenario.phoneAreaCodes);

    let callId: string;
    do callId = formatCallId(scenario.id, timestamp, options.callNumber());
    while (idsTaken.has(callId));
    idsTaken.add(callId);

    calls.push({
      call_id: callId,
      timestamp,
      created_at: createdAt,
      location: { latitude, longitude, address, area: area.name },
      emergency_type: kind.type,
      severity,
      description,
      summary,
      duration_secs: durationSecs,
      caller_phone: phone,
      status: "active",
      simulation: true,
      scenario: scenario.id,
      scenario_name: scenario.name,
    });
  }
  return calls;
}
