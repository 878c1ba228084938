import type { EmergencyType, Severity } from "../vocabulary";
import type { UnitType } from "./states";

/**
 * The default response plans (run cards): per emergency type and severity, the unit types and
 * counts a recommendation fills, in the order it fills them, each type's plan with why
 * (docs/units.md, "Response plans", lists them). An administrator's plan for a pair replaces its
 * default (lib/units/plans.ts). Pure data: the dashboard may read it.
 */

/** Unit types and counts in filling order: `{ engine: 2, ladder: 1 }`. */
export type PlanCounts = Partial<Record<UnitType, number>>;

export interface DefaultPlan {
  reason: string;
  plans: Record<Severity, PlanCounts>;
}

const evacuation: DefaultPlan = {
  reason: "People moving out: police to direct them, an ambulance for those who cannot go alone, an engine as well when critical.",
  plans: { critical: { patrol: 2, engine: 1, ambulance: 1 }, high: { patrol: 1, ambulance: 1 }, moderate: { patrol: 1 } },
};

export const DEFAULT_PLANS: Readonly<Record<EmergencyType, DefaultPlan>> = {
  structure_fire: {
    reason:
      "NFPA 1710's first alarm for a house fire: two engines (water supply and the attack line), a ladder (search, ventilation, " +
      "rescue from height), an ambulance (occupants and crews) and a chief officer in command; a lesser fire drops the chief, then an engine and the ambulance.",
    plans: { critical: { engine: 2, ladder: 1, ambulance: 1, command: 1 }, high: { engine: 2, ladder: 1, ambulance: 1 }, moderate: { engine: 1, ladder: 1 } },
  },
  medical_emergency: {
    reason:
      "A cardiac arrest or another threat to life: an ambulance to treat and transport, and the nearest engine as first responder " +
      "(CPR and a defibrillator before the ambulance arrives: NFPA 1710's 240 s travel); a moderate call an ambulance alone.",
    plans: { critical: { ambulance: 1, engine: 1 }, high: { ambulance: 1, engine: 1 }, moderate: { ambulance: 1 } },
  },
  medical_injuries: {
    reason: "Several people hurt: two ambulances and an engine crew to triage and treat when critical; one ambulance otherwise.",
    plans: { critical: { ambulance: 2, engine: 1 }, high: { ambulance: 1, engine: 1 }, moderate: { ambulance: 1 } },
  },
  debris_injury: {
    reason: "Someone hurt by debris: an ambulance, with an engine to free and protect the patient when critical.",
    plans: { critical: { ambulance: 1, engine: 1 }, high: { ambulance: 1 }, moderate: { ambulance: 1 } },
  },
  trapped_person: {
    reason: "Extrication: a rescue company's tools, an engine for protection and hands, an ambulance for the patient, a chief when critical.",
    plans: { critical: { rescue: 1, engine: 1, ambulance: 1, command: 1 }, high: { rescue: 1, engine: 1, ambulance: 1 }, moderate: { rescue: 1, ambulance: 1 } },
  },
  building_collapse: {
    reason:
      "A collapse is a technical rescue: rescue companies to search and shore, engines and a ladder for access and protection, " +
      "ambulances for the people found, a chief in command.",
    plans: {
      critical: { rescue: 2, engine: 2, ladder: 1, ambulance: 2, command: 1 },
      high: { rescue: 1, engine: 1, ladder: 1, ambulance: 1, command: 1 },
      moderate: { rescue: 1, engine: 1 },
    },
  },
  building_damage: {
    reason: "Damage with nobody known trapped: an engine and a ladder to check and make the structure safe, a rescue when critical.",
    plans: { critical: { engine: 1, ladder: 1, rescue: 1 }, high: { engine: 1, ladder: 1 }, moderate: { engine: 1 } },
  },
  gas_leak: {
    reason:
      "A gas leak: engines to isolate, ventilate and stand by with water, the hazmat unit to meter and control it, an ambulance " +
      "standing by and a chief for the evacuation when critical; a smell of gas an engine.",
    plans: { critical: { engine: 2, hazmat: 1, ambulance: 1, command: 1 }, high: { engine: 1, hazmat: 1 }, moderate: { engine: 1 } },
  },
  hazardous_materials: {
    reason: "A release: the hazmat unit, engines for decontamination and water, an ambulance for the exposed, a chief in command.",
    plans: { critical: { hazmat: 1, engine: 2, ambulance: 1, command: 1 }, high: { hazmat: 1, engine: 1, ambulance: 1 }, moderate: { hazmat: 1, engine: 1 } },
  },
  vehicle_accident: {
    reason: "A crash: an engine for fire and fluids, a rescue to extricate, ambulances for the injured, police for traffic; fewer as it is less severe.",
    plans: { critical: { engine: 1, rescue: 1, ambulance: 2, patrol: 1 }, high: { engine: 1, ambulance: 1, patrol: 1 }, moderate: { ambulance: 1, patrol: 1 } },
  },
  power_lines_down: {
    reason: "Lines down: an engine to hold the area until the utility cuts the power, police to keep traffic away.",
    plans: { critical: { engine: 1, patrol: 1 }, high: { engine: 1 }, moderate: { patrol: 1 } },
  },
  flooding: {
    reason: "Water rescue: a rescue company (boats, swift water), an engine, and an ambulance when critical.",
    plans: { critical: { rescue: 1, engine: 1, ambulance: 1 }, high: { rescue: 1, engine: 1 }, moderate: { engine: 1 } },
  },
  wind_damage: {
    reason: "Storm damage: an engine to check and make safe; a rescue and an ambulance when people may be hurt or trapped.",
    plans: { critical: { engine: 1, rescue: 1, ambulance: 1 }, high: { engine: 1 }, moderate: { engine: 1 } },
  },
  evacuation_assistance: evacuation,
  evacuation_needed: evacuation,
  shelter_information: {
    reason: "A question about shelters: the dispatcher answers it, no unit goes.",
    plans: { critical: {}, high: {}, moderate: {} },
  },
  shelter_needed: {
    reason: "Someone without shelter: police to find and help them, an ambulance when their health is at risk.",
    plans: { critical: { patrol: 1, ambulance: 1 }, high: { patrol: 1 }, moderate: { patrol: 1 } },
  },
  power_outage: {
    reason: "An outage needs a unit only when a life depends on power (oxygen, a ventilator): then an engine and an ambulance; a check by police when high.",
    plans: { critical: { engine: 1, ambulance: 1 }, high: { patrol: 1 }, moderate: {} },
  },
  law_enforcement: {
    reason: "Police matters: two patrols for the officers' safety, an ambulance when someone is hurt; one patrol when moderate.",
    plans: { critical: { patrol: 2, ambulance: 1 }, high: { patrol: 2 }, moderate: { patrol: 1 } },
  },
  natural_disaster: {
    reason: "A disaster at large: an engine, a rescue, an ambulance and a chief to size it up; the dispatcher adds from there.",
    plans: { critical: { engine: 1, rescue: 1, ambulance: 1, command: 1 }, high: { engine: 1, rescue: 1 }, moderate: { engine: 1 } },
  },
};
