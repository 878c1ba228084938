import type { Call, CallCorrection, CallStatusChange, Prisma } from "../db/generated/client";
import type { LocationSource, Precision } from "../geocoding/types";
import type { CallSource } from "../vocabulary";
import type { CallDetail, CallRecord, CallStatus, CorrectedField } from "./schema";
import { callTrackingId } from "./tracking-id";

/** The columns a listing reads (everything but the archived simulated record and payload key). */
export const LISTED_COLUMNS = {
  id: "id",
  conversationId: "conversation_id",
  occurredAt: "occurred_at",
  agentId: "agent_id",
  summary: "summary",
  callSuccessful: "call_successful",
  durationSecs: "duration_secs",
  transcriptLength: "transcript_length",
  createdAt: "created_at",
  emergencyType: "emergency_type",
  location: "location",
  latitude: "latitude",
  longitude: "longitude",
  locationPrecision: "location_precision",
  locationUncertaintyM: "location_uncertainty_m",
  locationMatched: "location_matched",
  locationSource: "location_source",
  severity: "severity",
  status: "status",
  simulation: "simulation",
  scenario: "scenario",
  scenarioName: "scenario_name",
  tableName: "table_name",
  callId: "call_id",
  area: "area",
  callerPhone: "caller_phone",
  callerName: "caller_name",
  description: "description",
  failureReason: "failure_reason",
  exerciseId: "exercise_id",
  incidentId: "incident_id",
  originalEmergencyType: "original_emergency_type",
  originalSeverity: "original_severity",
  originalLocation: "original_location",
  platform: "platform",
  recordingUrl: "recording_url",
  verified: "verified",
  onLine: "on_line",
} as const satisfies Partial<Record<keyof Call, string>>;

export type ListedCall = Pick<Call, keyof typeof LISTED_COLUMNS>;

/**
 * A stored call as GET /api/calls shows it. Simulated calls are stored with the mapping of
 * docs/interface.md already applied (conversation_id = call_id, agent_id `simulator`, location = the
 * address) and keep their own fields call_id, area, caller_phone and description.
 */
export function toCallRecord(call: ListedCall): CallRecord {
  const record: CallRecord = {
    conversation_id: call.conversationId,
    tracking_id: callTrackingId(call.conversationId),
    timestamp: Math.floor(call.occurredAt.getTime() / 1000),
    agent_id: call.agentId,
    summary: call.summary,
    call_successful: call.callSuccessful,
    duration_secs: call.durationSecs,
    transcript_length: call.transcriptLength,
    created_at: call.createdAt.toISOString(),
    emergency_type: call.emergencyType,
    location: call.location,
    latitude: call.latitude,
    longitude: call.longitude,
    location_precision: call.locationPrecision as Precision | null,
    location_uncertainty_m: call.locationUncertaintyM,
    location_matched: call.locationMatched,
    location_source: call.locationSource as LocationSource | null,
    severity: call.severity,
    status: call.status as CallStatus,
    simulation: call.simulation,
    scenario: call.scenario,
    scenario_name: call.scenarioName,
    table_name: call.tableName,
    incident_id: call.incidentId,
    platform: call.platform as CallSource,
    verified: call.verified,
  };
  if (call.callId !== null) record.call_id = call.callId;
  if (call.area !== null) record.area = call.area;
  if (call.callerPhone !== null) record.caller_phone = call.callerPhone;
  if (call.callerName !== null) record.caller_name = call.callerName;
  if (call.description !== null) record.description = call.description;
  if (call.failureReason !== null) record.failure_reason = call.failureReason as CallRecord["failure_reason"];
  if (call.exerciseId !== null) record.exercise_id = call.exerciseId;
  if (call.originalEmergencyType !== null) record.original_emergency_type = call.originalEmergencyType;
  if (call.originalSeverity !== null) record.original_severity = call.originalSeverity;
  if (call.originalLocation !== null) record.original_location = call.originalLocation;
  if (call.recordingUrl !== null) record.recording_url = call.recordingUrl;
  if (call.onLine) record.on_line = true;
  return record;
}

export interface CallDetailParts {
  history: CallStatusChange[];
  corrections: CallCorrection[];
  otherCalls: Pick<Call, "conversationId" | "occurredAt" | "emergencyType" | "severity" | "status">[];
  recording: { contentType: string; sizeBytes: bigint } | null;
  /** call_transcripts.turns as stored (lib/calls/write/received.ts) or read from the archive; [] without a transcript. */
  transcript: Prisma.JsonValue | CallDetail["transcript"];
}

/** Where the dashboard plays a call's recording. */
export const recordingPath = (conversationId: string) => `/api/calls/${encodeURIComponent(conversationId)}/recording`;

export function toCallDetail(call: Call, parts: CallDetailParts): CallDetail {
  const detail: CallDetail = {
    ...toCallRecord(call),
    transcript: Array.isArray(parts.transcript) ? (parts.transcript as CallDetail["transcript"]) : [],
    history: parts.history.map((change) => ({
      status: change.status as CallStatus,
      changed_at: change.changedAt.toISOString(),
      changed_by: change.changedByName ?? change.changedBy,
    })),
    corrections: parts.corrections.map((correction) => ({
      field: correction.field as CorrectedField,
      from: correction.fromValue,
      to: correction.toValue,
      changed_at: correction.changedAt.toISOString(),
      changed_by: correction.changedByName ?? correction.changedBy,
    })),
    other_calls_from_number: parts.otherCalls.map((other) => ({
      conversation_id: other.conversationId,
      timestamp: Math.floor(other.occurredAt.getTime() / 1000),
      emergency_type: other.emergencyType,
      severity: other.severity,
      status: other.status as CallStatus,
    })),
    recording: parts.recording && {
      url: recordingPath(call.conversationId),
      content_type: parts.recording.contentType,
      size_bytes: Number(parts.recording.sizeBytes),
    },
  };
  if (call.simulatedRecord !== null && typeof call.simulatedRecord === "object" && !Array.isArray(call.simulatedRecord)) {
    detail.simulated_record = call.simulatedRecord as Record<string, unknown>;
  }
  return detail;
}
