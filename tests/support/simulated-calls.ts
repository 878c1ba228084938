import { expect } from "vitest";
import { findScenario, SEVERITIES } from "@/lib/scenarios";
import type { SimulatedCall } from "@/lib/vocabulary";
import { SUMMARY_TEMPLATES } from "@/lib/simulation/templates";

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

/** True when `summary` is one of the three documented templates filled with the call's values. */
export function isTemplateSummary(call: SimulatedCall): boolean {
  return SUMMARY_TEMPLATES.some((template) => template(call.description, call.location.address) === call.summary);
}

/** The part of a call a seed decides: everything except its id and times. */
export function seededPart(call: SimulatedCall): Partial<SimulatedCall> {
  const part: Partial<SimulatedCall> = { ...call };
  delete part.call_id;
  delete part.timestamp;
  delete part.created_at;
  return part;
}
