import type { Incident } from "../db/generated/client";
import type { Precision } from "../geocoding/types";
import type { CallStatus } from "../vocabulary";
import type { IncidentRecord } from "./schema";

export function toIncidentRecord(incident: Incident): IncidentRecord {
  return {
    id: incident.id,
    emergency_type: incident.emergencyType,
    severity: incident.severity,
    status: incident.status as CallStatus,
    location: incident.location,
    latitude: incident.latitude,
    longitude: incident.longitude,
    location_precision: incident.locationPrecision as Precision | null,
    first_call_at: incident.firstCallAt.toISOString(),
    last_call_at: incident.lastCallAt.toISOString(),
    call_count: incident.callCount,
  };
}
