import type { UnitState, UnitType } from "../units/states";
import { type EmergencyType, emergencyTypeOf } from "../vocabulary";
import { lookupTable } from "../lookup-table";

/**
 * Mayday's values in NENA's EIDO registries (NENA-STA-021.1b, tables 31-38; docs/integrations.md,
 * "EIDO"): the one place an EIDO's registry values come from.
 */

/**
 * Emergency types as Incident Type registry values (APCO 2.103 common incident type codes).
 * A type is read through the agents' synonyms first (a post-call event's `fire` is stored as said,
 * as the interface keeps it, and exported as a structure fire); a type without an entry (an
 * agent's `unknown`) is TROUBLE, "unknown trouble". The EIDO carries Mayday's own type beside it
 * (incidentTypeInternalCode).
 */
export const APCO_INCIDENT_TYPES: Record<EmergencyType, string> = {
  structure_fire: "FSTRU",
  evacuation_assistance: "CITASST",
  trapped_person: "ENTRAP",
  medical_emergency: "SICK",
  shelter_information: "INFO",
  flooding: "WATER",
  wind_damage: "HAZ",
  power_outage: "ELEC",
  evacuation_needed: "RESCUE",
  building_collapse: "BLDCLPSE",
  gas_leak: "GASLEAK",
  debris_injury: "TRAUMA",
  building_damage: "HAZ",
  vehicle_accident: "MVA",
  power_lines_down: "WIRES",
  shelter_needed: "CITASST",
  medical_injuries: "TRAUMA",
  hazardous_materials: "HAZMAT",
  // APCO has no code for a call for the police whose nature is not yet known but this one,
  // "unknown trouble"; incidentTypeInternalCode says law_enforcement beside it.
  law_enforcement: "TROUBLE",
  natural_disaster: "MAJORINC",
};
export const UNMAPPED_INCIDENT_TYPE = "TROUBLE";

export function incidentTypeCode(emergencyType: string): string {
  const type = emergencyTypeOf(emergencyType);
  return Object.hasOwn(APCO_INCIDENT_TYPES, type) ? APCO_INCIDENT_TYPES[type as EmergencyType] : UNMAPPED_INCIDENT_TYPE;
}

/** Mayday's workflow statuses as Incident Status registry values. */
export const INCIDENT_STATUSES: Record<string, string> = lookupTable({
  active: "Active",
  dispatched: "ResourcesAssigned",
  enroute: "ResourcesEnroute",
  resolved: "Closed",
  failed: "Cancelled",
});
export const incidentStatusCode = (status: string): string => INCIDENT_STATUSES[status] ?? "Active";

/** Location Type registry values: where the incident is, where a caller said they were. */
export const LOCATION_TYPES = { incident: "CurrentIncident", caller: "Caller" } as const;

/** Agency Role registry value of the centre Mayday serves: it received the calls. */
export const AGENCY_ROLE = "CallReceiving";

/**
 * A unit sent to the incident (docs/integrations.md, "EIDO", units): its type as an Emergency
 * Resource Type value and what it is doing for the incident as a Primary Unit Status value (its
 * state while the assignment is open; `cleared` once it has left). NENA-STA-021.1b names both
 * registries, but the project's copy of its tables (../shared/nena-eido-json) holds neither: these
 * values follow the spelling of the Incident Status registry's (ResourcesEnroute,
 * ResourcesOnscene) and are not yet checked against NENA's tables. Mayday's own type and state go
 * beside them (emergencyResourceTypeInternalText, unitStatusInternal).
 */
export const RESOURCE_TYPES: Record<UnitType, string> = {
  engine: "Engine",
  ladder: "Ladder",
  rescue: "Rescue",
  ambulance: "Ambulance",
  patrol: "Patrol",
  hazmat: "HazMat",
  command: "Command",
  other: "Other",
};
export const resourceTypeCode = (type: string): string => (RESOURCE_TYPES as Record<string, string>)[type] ?? RESOURCE_TYPES.other;

/** An assigned unit's status on the incident: an assigned state, or `cleared`. */
export type ResourceStatus = Exclude<UnitState, "available" | "out_of_service"> | "cleared";
export const UNIT_STATUSES: Record<ResourceStatus, string> = {
  dispatched: "Dispatched",
  en_route: "Enroute",
  on_scene: "Onscene",
  transporting: "Transporting",
  at_hospital: "AtHospital",
  available_on_scene: "AvailableOnscene",
  cleared: "Cleared",
};
