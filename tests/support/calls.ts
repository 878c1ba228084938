import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { Call } from "@/lib/db/generated/client";
import { EMERGENCY_TYPES, SEVERITIES, STATUSES } from "@/lib/calls/schema";
import { PLATFORMS } from "@/lib/vocabulary";

/** A deterministic pseudo-random sequence (mulberry32), so a failing case can be replayed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIXTURE_TABLES = ["wildfire-simulation-calls", "tornado_drill.2026"];
const FIXTURE_LOCATIONS = [
  "1200 Sunset Blvd, Pacific Palisades",
  "455 Pacific Coast Hwy, Malibu",
  "88 Main St, Downtown Nashville",
  "100% Pure Rd, Mission District",
  "7 Under_Score Ln, Marina District",
  "12 Back\\Slash Ave, Miami Beach",
  "Corner of 5th and MAIN",
];

/** 2026-03-01T00:00:00Z: the fixture's calls spread over the three days from here. */
export const FIXTURE_START_MS = Date.UTC(2026, 2, 1);

// The change number and its time are the database's (a trigger assigns them on every write); each
// fixture call gets an incident of its own from the column's default (migration incidents), not grouped.
// The outbound events' stamps (announced_change, status_change) are the trigger's too.
export type CallInput = Omit<
  Call,
  | "createdAt" | "updatedAt" | "changeNumber" | "changedAt" | "incidentId" | "simulatedEvent" | "groupingPending" | "groupedAt" | "awaitingAnalysis"
  | "originalEmergencyType" | "originalSeverity" | "originalLocation" | "announcedChange" | "statusChange"
  | "onLine" | "liveAt" | "liveSeenAt" | "postCallAt" | "liveEndedAt" | "liveLocatedAt"
>;

/**
 * Calls of both kinds as the writers store them: voice-agent calls (table `calls`, not simulated,
 * no scenario) and simulated calls (agent `simulator`, conversation_id = call_id, the address as
 * location, extra fields set). Several share one second, and some one millisecond, so paging ties
 * are exercised.
 */
export function makeCalls(count: number, seed = 1): CallInput[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
  const calls: CallInput[] = [];
  let occurredMs = FIXTURE_START_MS;
  for (let index = 0; index < count; index++) {
    // Mostly a few minutes apart, often the same second, sometimes the very same millisecond.
    const gap = next();
    occurredMs += gap < 0.25 ? 0 : gap < 0.45 ? Math.floor(next() * 900) : Math.floor(next() * 1_500_000);
    const simulated = next() < 0.5;
    const location = pick(FIXTURE_LOCATIONS);
    const status = pick(STATUSES);
    const id = randomUUID();
    // The seed is part of the id: tests draw one call from each of many seeds into one database.
    const callId = simulated ? `LA_WILDFIRE-${Math.floor(occurredMs / 1000)}-${seed}-${index}` : null;
    calls.push({
      id,
      conversationId: callId ?? `conv_${index}_${id.slice(0, 8)}`,
      occurredAt: new Date(occurredMs),
      agentId: simulated ? "simulator" : "agent_911",
      summary: `Summary of call ${index} at ${location}.`,
      callSuccessful: simulated || next() < 0.8,
      durationSecs: 45 + Math.floor(next() * 500),
      transcriptLength: simulated ? 0 : 1 + Math.floor(next() * 30),
      emergencyType: pick(EMERGENCY_TYPES.slice(0, 8)),
      location,
      latitude: next() < 0.1 ? null : 34 + next(),
      longitude: next() < 0.1 ? null : -118 - next(),
      locationSource: simulated ? "generator" : "platform",
      locationPrecision: simulated ? "locality" : "address_point",
      locationUncertaintyM: simulated ? 3000 : 10,
      locationMatched: null,
      locationCivic: null,
      severity: pick(SEVERITIES),
      status,
      simulation: simulated,
      scenario: simulated ? "la_wildfire" : null,
      scenarioName: simulated ? "Los Angeles Wildfire" : null,
      tableName: simulated ? pick(FIXTURE_TABLES) : "calls",
      callId,
      area: simulated ? (location.split(", ")[1] ?? "Santa Monica Mountains") : null,
      callerPhone: simulated ? `+1310${2_000_000 + index}` : null,
      callerName: null,
      description: simulated ? "Smoke visible from the road" : null,
      simulatedRecord: simulated ? { call_id: callId, location: { address: location } } : null,
      payloadKey: simulated ? null : `calls/conv_${index}/payload.json`,
      failureReason: null,
      exerciseId: null,
      // Voice-agent calls from each platform in turn (simulated calls keep the column's default).
      platform: simulated ? "elevenlabs" : PLATFORMS[index % PLATFORMS.length],
      recordingUrl: null,
      verified: simulated ? null : true,
    });
  }
  return calls;
}

/** Inserts the calls with their creation entry in the status history, as the writers do. */
export async function insertCalls(db: Db, calls: CallInput[]): Promise<void> {
  await db.call.createMany({
    data: calls.map((call) => ({ ...call, simulatedRecord: call.simulatedRecord ?? undefined, locationCivic: undefined })),
  });
  await db.callStatusChange.createMany({
    data: calls.map((call) => ({
      callId: call.id,
      status: call.status,
      changedBy: call.simulation ? "simulator" : "webhook",
      changedAt: call.occurredAt,
    })),
  });
}

/** Newest first, ties by id: the order GET /api/calls promises. */
export function byListingOrder(a: CallInput, b: CallInput): number {
  const time = b.occurredAt.getTime() - a.occurredAt.getTime();
  return time !== 0 ? time : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export const unixSeconds = (call: CallInput) => Math.floor(call.occurredAt.getTime() / 1000);
