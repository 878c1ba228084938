import type { Incident } from "../db/generated/client";
import type { Precision } from "../geocoding/types";
import type { CallStatus } from "../vocabulary";
import type { IncidentRecord } from "./schema";

/**
 * An incident's listed fields: a row of `incidents` (Prisma's, or raw SQL's with the same names), or
 * a merged-away incident as incident_merges.record keeps it (written in SQL: times as text).
 */
export type IncidentFields = Pick<Incident, "id" | "emergencyType" | "severity" | "status" | "location" | "latitude" | "longitude" | "callCount"> & {
  /** Absent from a merged-away incident kept before precision was. */
  locationPrecision?: string | null;
  /** Absent from a merged-away incident kept before the radius was. */
  locationUncertaintyM?: number | null;
  /** Absent from a merged-away incident kept before the matched address was. */
  locationMatched?: string | null;
  firstCallAt: Date | string;
  lastCallAt: Date | string;
};

export function toIncidentRecord(incident: IncidentFields): IncidentRecord {
  return {
    id: incident.id,
    emergency_type: incident.emergencyType,
    severity: incident.severity,
    status: incident.status as CallStatus,
    location: incident.location,
    location_matched: incident.locationMatched ?? null,
    latitude: incident.latitude,
    longitude: incident.longitude,
    location_precision: (incident.locationPrecision ?? null) as Precision | null,
    location_uncertainty_m: incident.locationUncertaintyM ?? null,
    first_call_at: new Date(incident.firstCallAt).toISOString(),
    last_call_at: new Date(incident.lastCallAt).toISOString(),
    call_count: incident.callCount,
  };
}
