import { randomUUID } from "node:crypto";
import type { Actor } from "../access/actor";
import { requireMayAct } from "../access/status-rule";
import { recordAudit } from "../audit/record-audit";
import { getCall } from "../calls/detail";
import type { CallDetail } from "../calls/schema";
import type { TakenCallBody } from "../calls/taken-schema";
import { withDatabase } from "../db/with-database";
import { type CallWrites, type LocatedPoint, locatedPoint, writeCalls } from "../calls/write/write-calls";
import { DomainError, invalidParameter, notFound } from "../domain-error";
import { getGeocoder, GeocoderUnavailableError } from "../geocoding/geocoder";
import { groupSoon } from "../incidents/grouper";
import { groupingEnabled, placementQuery } from "../incidents/grouping";
import { UNCERTAINTY_METRES } from "../geocoding/precision";
import { assignReportingUnit } from "../units/on-scene";
import { getUnit } from "../units/read";
import type { Unit } from "../units/schema";
import { CALL_TAKER } from "../vocabulary";
import { GEOCODE_TEXT_LIMIT, normalisePhone } from "../calls/sanitise";
import { chosenCandidate } from "./locations";

/** A form opened this long after the server's clock is the browser's clock ahead: taken as now. */
export const FORM_CLOCK_SKEW_MS = 5_000;
/** A form opened longer ago than this is a mistake (a call's time would be implausible: lib/calls/queue-time.ts). */
export const FORM_OPEN_MAX_MS = 24 * 3600_000;

/** A taken call's answer: the call as GET /api/calls/{id} shows it, and whether this save stored it (false: a retried save). */
export interface TakenCallAnswer {
  call: CallDetail;
  created: boolean;
}

/** When the call began: the form's opening (a browser's clock a little ahead taken as now), else now. */
function callTime(formOpenedAt: number | undefined): Date {
  const now = Date.now();
  if (formOpenedAt === undefined) return new Date(now);
  const at = formOpenedAt * 1000;
  if (at > now + FORM_CLOCK_SKEW_MS) throw invalidParameter("Invalid form_opened_at", "form_opened_at is after now: the time the form opened, in Unix seconds");
  if (at < now - FORM_OPEN_MAX_MS) throw invalidParameter("Invalid form_opened_at", "form_opened_at is more than 24 hours ago");
  return new Date(Math.min(at, now));
}

interface Located {
  point: LocatedPoint | null;
  geocoderFailed: boolean;
}

/**
 * A call a unit reported without a location: where the unit last reported its position, as a
 * point as exact as an address point (a vehicle's GPS), in words its call sign and coordinates.
 * A unit with no position, or one older than UNIT_POSITION_STALE_SECONDS, places nothing: the
 * person types the location.
 */
function atUnitPosition(unit: Unit): Located & { location: string } {
  const position = unit.position;
  if (position === null || position.stale) {
    throw new DomainError("CONFLICT", `${unit.call_sign} has ${position === null ? "no reported position" : "no recent position"}: type the location`, {
      label: "Unit position unknown",
    });
  }
  const { latitude, longitude } = position;
  return {
    location: `${unit.call_sign}'s position, ${latitude.toFixed(5)}, ${longitude.toFixed(5)}`,
    point: { latitude, longitude, precision: "address_point", uncertaintyMeters: UNCERTAINTY_METRES.address_point, source: "unit", matched: null, civic: null },
    geocoderFailed: false,
  };
}

/**
 * Where the call is: the chosen candidate (409 CONFLICT when the text's candidates no longer hold
 * it), else the words geocoded as every call's are; a place no geocoder knows leaves the call
 * without a point, and a geocoder that cannot answer costs the point, never the call (it waits for
 * the grouper, which places it by its words).
 */
async function locate(body: TakenCallBody, location: string): Promise<Located> {
  if (body.candidate_id !== undefined) {
    const chosen = await chosenCandidate(location, body.candidate_id);
    if (!chosen) {
      throw new DomainError("CONFLICT", `The candidate ${body.candidate_id} is no longer among the location's (the centre's GIS data changed?): choose again`, {
        label: "Candidate not found",
      });
    }
    return { point: locatedPoint(chosen), geocoderFailed: false };
  }
  try {
    const found = await getGeocoder().geocode(location.slice(0, GEOCODE_TEXT_LIMIT));
    return { point: found ? locatedPoint(found) : null, geocoderFailed: false };
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    return { point: null, geocoderFailed: true };
  }
}

interface ChosenIncident {
  id: string;
  status: string;
  simulation: boolean;
  exercise_id: string | null;
}

/**
 * The call's kind (real, or training of an exercise), from the incident the person chose, else the
 * exercise named, else real; and who may take it: a dispatcher any call, a trainer training calls only.
 */
async function kindOf(writes: CallWrites, body: TakenCallBody, actor: Actor): Promise<{ exerciseId: string | null } | null> {
  const { tx } = writes;
  await writes.lockChangeFeed();
  if (body.incident_id !== undefined) {
    const [incident] = await tx.$queryRaw<ChosenIncident[]>`
      SELECT id, status, simulation, exercise_id FROM incidents WHERE id = ${body.incident_id} FOR UPDATE`;
    if (!incident) throw notFound(`No incident with id ${body.incident_id}`);
    if (!["active", "dispatched", "enroute"].includes(incident.status)) {
      throw new DomainError("CONFLICT", `Incident ${incident.id} is ${incident.status}: a call joins an open incident, or opens its own`, { label: "Incident closed" });
    }
    if (body.exercise_id !== undefined && body.exercise_id !== incident.exercise_id) {
      throw new DomainError("TRAINING_MIX", `Incident ${incident.id} is not one of exercise ${body.exercise_id}'s`);
    }
    await requireMayAct(tx, actor, { incident: incident.id });
    return incident.simulation ? { exerciseId: incident.exercise_id } : null;
  }
  if (body.exercise_id !== undefined) {
    const [exercise] = await tx.$queryRaw<{ state: string }[]>`SELECT state FROM exercises WHERE id = ${body.exercise_id}`;
    if (!exercise) throw notFound(`No exercise with id ${body.exercise_id}`);
    if (exercise.state === "stopped" || exercise.state === "completed") {
      throw new DomainError("CONFLICT", `Exercise ${body.exercise_id} has ended: its calls are closed`, { label: "Exercise ended" });
    }
    await requireMayAct(tx, actor, { call: { simulation: true } });
    return { exerciseId: body.exercise_id };
  }
  await requireMayAct(tx, actor, { call: { simulation: false } });
  return null;
}

/** A conversation_id stored before: a retried save of a taken call answers it; any other call's is a conflict. */
async function storedBefore(conversationId: string | undefined): Promise<TakenCallAnswer | undefined> {
  if (conversationId === undefined) return undefined;
  const stored = await withDatabase((db) => db.call.findUnique({ where: { conversationId }, select: { platform: true } }));
  if (!stored) return undefined;
  if (stored.platform !== CALL_TAKER) throw new DomainError("CONFLICT", `conversation_id ${conversationId} names another call`, { label: "Call id taken" });
  return { call: await getCall(conversationId), created: false };
}

/**
 * POST /api/calls: a call a person takes (docs/calls.md, "A call a person takes"), through the
 * calls' one door as a call of its own source (`call_taker`), the person (or key) as its agent and
 * in its history, audited (`call.taken`) in the same transaction; announced as every call is (the
 * change feed, the `call.created` event, the EIDO). Placed in the open incident the person chose,
 * else by the grouping rule. A save retried with the same conversation_id answers the call stored.
 */
export async function takeCall(request: TakenCallBody, actor: Actor): Promise<TakenCallAnswer> {
  const occurredAt = callTime(request.form_opened_at);
  const retried = await storedBefore(request.conversation_id);
  if (retried) return retried;
  const unit = request.unit_id === undefined ? null : await getUnit(request.unit_id);
  // An exercise's unit reports its exercise's calls.
  const body = { ...request, exercise_id: request.exercise_id ?? unit?.exercise_id ?? undefined };
  const { location, ...located } = body.location === undefined ? atUnitPosition(unit!) : { location: body.location, ...(await locate(body, body.location)) };
  const conversationId = body.conversation_id ?? randomUUID();
  const grouping = groupingEnabled();
  // A unit's own report opens an incident of its own (or joins the one chosen): grouping does not place it.
  const placement = grouping && unit === null ? placementQuery : undefined;
  const { inserted } = await writeCalls(async (writes) => {
    const training = await kindOf(writes, body, actor);
    const written = await writes.insertTakenCall(
      {
        conversationId,
        occurredAt,
        callerPhone: normalisePhone(body.callback_number),
        callerName: body.caller_name || null,
        emergencyType: body.emergency_type,
        severity: body.severity,
        location,
        ...located,
        narrative: body.narrative,
        incidentId: body.incident_id ?? null,
        training,
      },
      actor,
      placement,
    );
    if (written.inserted) {
      const [{ incident_id: incidentId }] = await writes.tx.$queryRaw<{ incident_id: string }[]>`SELECT incident_id FROM calls WHERE id = ${written.id}`;
      await recordAudit(writes.tx, actor, {
        action: "call.taken",
        target: { kind: "call", id: conversationId },
        after: {
          emergency_type: body.emergency_type,
          severity: body.severity,
          location,
          location_precision: located.point?.precision ?? null,
          incident_id: incidentId,
          joined: body.incident_id !== undefined,
          exercise_id: training?.exerciseId ?? null,
          unit_id: body.unit_id ?? null,
        },
      });
      if (body.unit_id !== undefined) await assignReportingUnit(writes, body.unit_id, incidentId, actor);
    }
    return written;
  });
  if (inserted && located.geocoderFailed && placement !== undefined) groupSoon();
  return { call: await getCall(conversationId), created: inserted };
}
