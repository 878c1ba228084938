import { expect } from "vitest";
import { findScenario, SEVERITIES } from "@/lib/scenarios/scenario-list";
import type { SimulatedCall } from "@/lib/vocabulary";

/** Asserts every documented rule (docs/interface.md) on one request's generated calls. */
export function expectCallsFollowTheRules(calls: readonly SimulatedCall[], scenarioId: string): void {
  const scenario = findScenario(scenarioId)!;
  const areas = new Map(scenario.areas.map((area) => [area.name, area]));
  const kinds = new Map(scenario.emergencies.map((kind) => [kind.type, kind]));
  const idPattern = new RegExp(`^${scenarioId.toUpperCase()}-(\\d+)-(\\d+)$`);
  const places = new Set<string>();

  for (const call of calls) {
    expect(Object.keys(call).sort()).toEqual(
      [
        "call_id", "timestamp", "created_at", "location", "emergency_type", "severity", "description",
        "summary", "duration_secs", "caller_phone", "status", "simulation", "scenario", "scenario_name",
      ].sort(),
    );
    const id = idPattern.exec(call.call_id);
    expect(id, call.call_id).not.toBeNull();
    expect(Number(id![1])).toBe(call.timestamp);
    expect(Number.isInteger(call.timestamp)).toBe(true);
    expect(call.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.floor(Date.parse(call.created_at) / 1000)).toBe(call.timestamp);

    const { latitude, longitude, address, area: areaName } = call.location;
    expect(Object.keys(call.location).sort()).toEqual(["address", "area", "latitude", "longitude"]);
    const area = areas.get(areaName);
    expect(area, areaName).toBeDefined();
    expect(typeof latitude).toBe("string");
    expect(typeof longitude).toBe("string");
    expect(latitude).toMatch(/^-?\d+\.\d+$/);
    expect(longitude).toMatch(/^-?\d+\.\d+$/);
    expect(Math.abs(Number(latitude) - area!.center.lat)).toBeLessThanOrEqual(0.02 + 1e-9);
    expect(Math.abs(Number(longitude) - area!.center.lon)).toBeLessThanOrEqual(0.02 + 1e-9);
    const match = /^(\d+) (.+), (.+)$/.exec(address);
    expect(match, address).not.toBeNull();
    const streetNumber = Number(match![1]);
    expect(streetNumber).toBeGreaterThanOrEqual(100);
    expect(streetNumber).toBeLessThanOrEqual(2999);
    expect(area!.streets).toContain(match![2]);
    expect(match![3]).toBe(areaName);
    const place = `${address}|${Number(latitude).toFixed(4)}|${Number(longitude).toFixed(4)}`;
    expect(places.has(place), place).toBe(false);
    places.add(place);

    const kind = kinds.get(call.emergency_type as never);
    expect(kind, call.emergency_type).toBeDefined();
    expect(SEVERITIES).toContain(call.severity);
    expect(kind!.descriptions).toContain(call.description);
    expect(call.description.length).toBeLessThanOrEqual(80);
    expect(call.summary).toContain(address);
    expect(Number.isInteger(call.duration_secs)).toBe(true);
    expect(call.duration_secs).toBeGreaterThanOrEqual(45);
    expect(call.duration_secs).toBeLessThanOrEqual(600);
    expect(call.caller_phone).toMatch(/^\+1[2-9]\d{2}[2-9]\d{6}$/);
    expect(scenario.phoneAreaCodes).toContain(call.caller_phone.slice(2, 5));
    expect(call.status).toBe("active");
    expect(call.simulation).toBe(true);
    expect(call.scenario).toBe(scenarioId);
    expect(call.scenario_name).toBe(scenario.name);
  }
  expect(new Set(calls.map((call) => call.call_id)).size).toBe(calls.length);
}

/**
 * The specification's three summary shapes of `POST /simulate` ("Simulation", rule 2), word for
 * word, written out here rather than read from lib/simulation/templates.ts so that a change there
 * fails the tests.
 */
export const SPECIFIED_SUMMARY_SHAPES = [
  "Caller reported {emergency_desc} at {address}. Emergency services have been dispatched to the scene.",
  "911 dispatch received report of {emergency_desc} at {address}. First responders en route with ETA 5-7 minutes.",
  "Emergency call regarding {emergency_desc} at {address}. Fire and EMS units notified and responding.",
] as const;

/** The shape filled with a call's description and address. */
export const fillShape = (shape: string, call: SimulatedCall): string =>
  shape.replace("{emergency_desc}", () => call.description).replace("{address}", () => call.location.address);

/** True when the call's summary is one of the specification's three shapes filled with its description and address. */
export function isTemplateSummary(call: SimulatedCall): boolean {
  return SPECIFIED_SUMMARY_SHAPES.some((shape) => fillShape(shape, call) === call.summary);
}

/** The part of a call a seed decides: everything except its id and times. */
export function seededPart(call: SimulatedCall): Partial<SimulatedCall> {
  const part: Partial<SimulatedCall> = { ...call };
  delete part.call_id;
  delete part.timestamp;
  delete part.created_at;
  return part;
}
