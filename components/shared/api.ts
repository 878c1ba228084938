/**
 * The dashboard's only door to the server: typed calls to the public API (docs/interface.md).
 * Client-side code only.
 */

import type { Permission, Role } from "@/lib/access/roles";
import type { ApiKeyView, CreatedApiKey, UserView, WhoAmI } from "@/lib/access/schema";
import type { Acknowledgement } from "@/lib/acknowledgements/schema";
import type { AuditPage } from "@/lib/audit/schema";
import type { CallDetail, CallList as CallsPage, CallRecord, CallUpdate, CallUpdated } from "@/lib/calls/schema";
import type { GisLayerName } from "@/lib/geocoding/centre/fields";
import type { GisLayerView } from "@/lib/geocoding/centre/schema";
import type { MapPlaces } from "@/lib/geocoding/map-places-schema";
import type { Box, MapArea, MapStreets } from "@/lib/geocoding/map-streets-schema";
import type { FeedPosition } from "@/lib/feed";
import type { IncidentDetail, MergeCandidates } from "@/lib/incidents/schema";
import type { AssignUnitsAnswer, Recommendation, Unit } from "@/lib/units/schema";
import type { UnitState } from "@/lib/units/states";
import type { PlanSlot, ResponsePlan } from "@/lib/units/plan-schema";
import type {
  AlertIncident, Alerts, Board, CallChange, ChangePage, FeedChange, HourlySeries, IncidentMapView, IncidentQueuePage, LiveIncident,
} from "@/lib/board/schema";
import type { ExerciseVisibility } from "@/lib/board/exercise-visibility";
import type { Instruction, Transfer } from "@/lib/on-the-line/schema";
import type { Note, NotesPage } from "@/lib/notes/schema";
import type { LocationCandidates, LocationDuplicates } from "@/lib/call-taking/schema";
import type { TakenCallBody } from "@/lib/calls/taken-schema";
import type { SimulationResult as SimulateResult } from "@/lib/simulation/result";
import type { BodyFormat, EventType } from "@/lib/subscriptions/event-types";
import type { DeliveryPage, SubscriptionView, SubscriptionWithSecret } from "@/lib/subscriptions/schema";
import type { CallStatus } from "@/lib/vocabulary";

// The response shapes are the API's own zod schemas (type-only imports: nothing server-side is
// bundled), so the dashboard cannot drift from what the API sends.
export type {
  Acknowledgement, AlertIncident, Alerts, Board, CallChange, CallDetail, CallRecord, CallsPage, CallUpdate, CallUpdated, ChangePage, FeedChange, HourlySeries, IncidentDetail, IncidentMapView,
  IncidentQueuePage, LiveIncident, MergeCandidates, Note, NotesPage, SimulateResult, ApiKeyView, AuditPage, CreatedApiKey, UserView, WhoAmI, DeliveryPage, SubscriptionView,
  SubscriptionWithSecret,
};

export interface CallFilters {
  emergency_type?: string;
  severity?: string;
  status?: string;
  start_date?: string;
  end_date?: string;
  location?: string;
  /** Text in the summary, location or transcript (3 to 200 characters). */
  q?: string;
  simulation?: "true" | "false";
  table_name?: string;
  platform?: string;
}

export interface SimulateRequest {
  scenario: string;
  num_calls: number;
  table_name: string;
  /** 0 to 0.9: the share of calls about an event an earlier call reported. */
  duplicate_share?: number;
}

/** A failed request: `status` 0 means the API could not be reached at all. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The error body's other fields (e.g. the refused units of UNIT_UNAVAILABLE). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiRequestError";
  }

  get unreachable(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

/**
 * The latest answer to each read, with its ETag: a read sends If-None-Match and an unchanged view
 * comes back as a bodiless 304 (docs/interface.md, "Conditional reads"). The dashboard reads its
 * views again as changes come, and most reads find a view unchanged. Kept in memory only (the
 * API's answers are no-store), the most recently used READS_KEPT.
 */
const lastReads = new Map<string, { etag: string; body: unknown }>();
const READS_KEPT = 200;

function keepRead(path: string, etag: string | null, body: unknown): void {
  lastReads.delete(path);
  if (etag === null) return;
  lastReads.set(path, { etag, body });
  if (lastReads.size > READS_KEPT) lastReads.delete(lastReads.keys().next().value!);
}

export async function request<T>(path: string, init?: RequestInit): Promise<T> {
  const read = (init?.method ?? "GET") === "GET";
  const earlier = read ? lastReads.get(path) : undefined;
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      // No other header on a first read: the browser then reuses the page's preload of the newest calls.
      headers: init?.body
        ? { accept: "application/json", "content-type": "application/json", ...(init.headers as Record<string, string>) }
        : earlier
          ? { "if-none-match": earlier.etag }
          : undefined,
      credentials: "same-origin",
    });
  } catch {
    throw new ApiRequestError(0, "The Mayday API cannot be reached");
  }
  if (response.status === 304 && earlier) {
    keepRead(path, earlier.etag, earlier.body);
    return earlier.body as T;
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (read && response.ok) keepRead(path, response.headers.get("etag"), body);
  if (!response.ok) {
    // Calls errors carry `message`, simulation errors `details`; both carry `error`.
    const fields = (body ?? {}) as { message?: string; details?: string; error?: string; error_code?: string };
    const message = fields.message ?? fields.details ?? fields.error ?? `Request failed (${response.status})`;
    throw new ApiRequestError(response.status, message, fields.error_code, (body ?? {}) as Record<string, unknown>);
  }
  return body as T;
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") search.set(key, String(value));
  }
  return search.toString();
}

export function listCalls(filters: CallFilters, limit: number, offset: number): Promise<CallsPage> {
  return request(`/api/calls?${query({ ...filters, limit, offset })}`);
}

/** Every call matching `filters`, as a CSV file the server streams (GET /api/calls/export.csv). */
export function callsExportUrl(filters: CallFilters): string {
  return `/api/calls/export.csv?${query({ ...filters })}`;
}

export function getCall(id: string): Promise<CallDetail> {
  return request(`/api/calls/${encodeURIComponent(id)}`);
}

/** A status move, corrections of type, severity or location, or both (PATCH /api/calls/{id}). */
export function updateCall(id: string, update: CallUpdate): Promise<CallUpdated> {
  return request(`/api/calls/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: JSON.stringify(update),
  });
}

/** A dispatcher's instruction for the voice agent on a live call; `delivery` says whether the platform took it. */
export function instructAgent(id: string, text: string): Promise<Instruction> {
  return request(`/api/calls/${encodeURIComponent(id)}/instruction`, { method: "POST", body: JSON.stringify({ text }) });
}

/** Asks the platform (Vapi) to transfer a live call's caller to a human number. */
export function transferCaller(id: string, number: string): Promise<Transfer> {
  return request(`/api/calls/${encodeURIComponent(id)}/transfer`, { method: "POST", body: JSON.stringify({ number }) });
}

export function simulate(body: SimulateRequest): Promise<SimulateResult> {
  return request("/api/simulate", { method: "POST", body: JSON.stringify(body) });
}

/** The board summary: what the dashboard needs first (the page preloads this URL). */
export const BOARD_URL = "/api/live/board";

/** `exercises=hide` when the dispatcher hides exercise calls; nothing otherwise (the preloaded URL). */
function exercisesQuery(exercises: ExerciseVisibility): { exercises?: ExerciseVisibility } {
  return exercises === "hide" ? { exercises } : {};
}

export function getBoard(exercises: ExerciseVisibility): Promise<Board> {
  return request(exercises === "hide" ? `${BOARD_URL}?${query(exercisesQuery(exercises))}` : BOARD_URL);
}

export type QueueSection = "waiting" | "dispatched";
/** Real incidents, or training ones (simulated: an exercise's or the simulator's), each a part of the queue of its own. */
export type IncidentKind = "real" | "training";
export type QueueSort = "priority" | "received";
/** Which incidents the queue shows: one section, its order, and a scenario (and area) or all. */
export interface QueueView {
  section: QueueSection;
  kind: IncidentKind;
  sort: QueueSort;
  scenario?: string;
  area?: string;
}

/** One keyset page of a queue section, each incident with its latest call; `after` is the previous page's `next`. */
export function getIncidentQueue(view: QueueView, after: string | undefined, limit: number, exercises: ExerciseVisibility): Promise<IncidentQueuePage> {
  return request(`/api/live/incidents?${query({ limit, ...view, after, ...exercisesQuery(exercises) })}`);
}

/** The alerts: new critical calls not yet acknowledged, and reminders (`exercise`: the exercise shown, whose incidents alert too). */
export function getAlerts(exercise: string | undefined): Promise<Alerts> {
  return request(`/api/live/alerts${exercise ? `?${query({ exercise })}` : ""}`);
}

export function acknowledgeIncident(id: string): Promise<Acknowledgement> {
  return request(`/api/incidents/${encodeURIComponent(id)}/acknowledge`, { method: "POST" });
}

/** Every alert of one kind acknowledged at once (`exercise`: the exercise shown, as the alerts were read). */
export function acknowledgeAlerts(kind: IncidentKind, exercise: string | undefined): Promise<{ acknowledged: number }> {
  return request("/api/live/alerts/acknowledge", { method: "POST", body: JSON.stringify({ kind, exercise }) });
}

export function getIncident(id: string): Promise<IncidentDetail> {
  return request(`/api/incidents/${encodeURIComponent(id)}`);
}

/** What a status move says besides the status (docs/incidents.md, "Dispatch reason and disposition"). */
export interface MoveDetails {
  dispatch_reason?: string;
  disposition?: string;
}

export function updateIncidentStatus(id: string, status: CallStatus, details: MoveDetails = {}): Promise<IncidentDetail> {
  return request(`/api/incidents/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify({ status, ...details }) });
}

/** Reverts one status move of the incident, its maker's latest (POST /api/incidents/{id}/undo-status). */
export function undoIncidentStatus(id: string, changeId: string): Promise<IncidentDetail> {
  return request(`/api/incidents/${encodeURIComponent(id)}/undo-status`, { method: "POST", body: JSON.stringify({ change_id: changeId }) });
}

/** Moves one call out of an incident into a new one of its own. */
export function splitIncident(id: string, callId: string): Promise<IncidentDetail> {
  return request(`/api/incidents/${encodeURIComponent(id)}/split`, { method: "POST", body: JSON.stringify({ call_id: callId }) });
}

/** Moves every call of `otherId` into `id`; `otherId` ceases to exist. */
/** The open incidents of its kind that may merge into it, nearest first; `q`: words of their address or type. */
export function getMergeCandidates(id: string, q: string): Promise<MergeCandidates> {
  const words = q.trim();
  return request(`/api/incidents/${encodeURIComponent(id)}/merge-candidates${words ? `?${query({ q: words })}` : ""}`);
}

export function mergeIncidents(id: string, otherId: string): Promise<IncidentDetail> {
  return request(`/api/incidents/${encodeURIComponent(id)}/merge`, { method: "POST", body: JSON.stringify({ other_id: otherId }) });
}

/** A possible duplicate of the incident dismissed: two emergencies (docs/incidents.md, "Possible duplicates"). */
export function dismissDuplicate(id: string, otherId: string): Promise<unknown> {
  return request(`/api/incidents/${encodeURIComponent(id)}/dismiss-duplicate`, { method: "POST", body: JSON.stringify({ other_id: otherId }) });
}

/** The incident's newest notes (GET /api/incidents/{id}/notes). */
export function getNotes(id: string, limit = 200): Promise<NotesPage> {
  return request(`/api/incidents/${encodeURIComponent(id)}/notes?${query({ limit })}`);
}

/** `unitId`: the note is that unit's radio report, naming it. */
export function addNote(id: string, text: string, unitId?: string): Promise<Note> {
  return request(`/api/incidents/${encodeURIComponent(id)}/notes`, { method: "POST", body: JSON.stringify({ text, unit_id: unitId }) });
}

/** Where a location typed so far may be: the centre's GIS candidates, else the geocoder's (GET /api/locations). */
export function getLocationCandidates(q: string): Promise<LocationCandidates> {
  return request(`/api/locations?${query({ q })}`);
}

/** The open incidents a call at this point and of this type may duplicate, nearest first. */
export function getLocationDuplicates(point: { latitude: number; longitude: number; emergency_type: string }): Promise<LocationDuplicates> {
  return request(`/api/locations/duplicates?${query(point)}`);
}

/** A call the person took (POST /api/calls): the call as stored. */
export function takeCall(call: TakenCallBody): Promise<CallDetail> {
  return request("/api/calls", { method: "POST", body: JSON.stringify(call) });
}

export interface Viewport {
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
}

/** Incident clusters and markers for a map viewport (coordinates rounded: nearby views share a request). */
export function getIncidentMap(view: Viewport, exercises: ExerciseVisibility): Promise<IncidentMapView> {
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return request(
    `/api/live/incident-map?${query({ west: round(view.west), south: round(view.south), east: round(view.east), north: round(view.north), zoom: view.zoom, ...exercisesQuery(exercises) })}`,
  );
}

/** Town and city names for the offline map's viewport (GET /api/map/places). */
export function getMapPlaces(view: Viewport): Promise<MapPlaces> {
  const round = (value: number) => Math.round(value * 100) / 100;
  return request(`/api/map/places?${query({ west: round(view.west), south: round(view.south), east: round(view.east), north: round(view.north), zoom: view.zoom })}`);
}

/** The centre's own streets in a box (GET /api/map/streets): the box is the caller's, snapped so that views share it. */
export function getMapStreets(bbox: Box, zoom: number): Promise<MapStreets> {
  return request(`/api/map/streets?${query({ bbox: bbox.join(","), zoom })}`);
}

export function getMapArea(): Promise<MapArea> {
  return request("/api/map/area");
}

/** The history chart's series under the history's filters. */
export function getHourly(filters: CallFilters, exercises: ExerciseVisibility): Promise<HourlySeries> {
  return request(`/api/live/hourly?${query({ ...filters, ...exercisesQuery(exercises) })}`);
}

/** The change feed after a cursor: the polling fallback of the stream. */
export function getChanges(after: FeedPosition, limit = 1000): Promise<ChangePage> {
  return request(`/api/calls/changes?${query({ after, limit })}`);
}

export const STREAM_URL = "/api/calls/stream";

// People, keys and the audit trail (docs/security.md).

export function signIn(email: string, password: string): Promise<WhoAmI> {
  return request("/api/session", { method: "POST", body: JSON.stringify({ email, password }) });
}

let signingOut = false;

/** Ends the session. From then on a 401 is expected, not a reason to send the person to sign in again. */
export function signOut(): Promise<void> {
  signingOut = true;
  return request("/api/session", { method: "DELETE" });
}

/** A 401 means the session ended without the person asking: send them to sign in, then back. */
export function sessionLost(error: unknown): boolean {
  return !signingOut && error instanceof ApiRequestError && error.status === 401;
}

export function createFirstAdministrator(person: { name: string; email: string; password: string }): Promise<UserView> {
  return request("/api/setup", { method: "POST", body: JSON.stringify(person) });
}

export function listUsers(): Promise<{ users: UserView[] }> {
  return request("/api/users");
}

export function createUser(person: { name: string; email: string; password: string; role: Role }): Promise<UserView> {
  return request("/api/users", { method: "POST", body: JSON.stringify(person) });
}

export function setUserRole(id: string, role: Role): Promise<UserView> {
  return request(`/api/users/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify({ role }) });
}

export function removeUser(id: string): Promise<void> {
  return request(`/api/users/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function listKeys(): Promise<{ keys: ApiKeyView[] }> {
  return request("/api/keys");
}

export function createKey(key: { name: string; scopes: Permission[]; expires_at?: string; owner_id?: string }): Promise<CreatedApiKey> {
  return request("/api/keys", { method: "POST", body: JSON.stringify(key) });
}

export function revokeKey(id: string): Promise<ApiKeyView> {
  return request(`/api/keys/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export interface AuditFilters {
  actor?: string;
  action?: string;
  target_kind?: string;
  target_id?: string;
  from?: string;
  to?: string;
}

export function listAudit(filters: AuditFilters, cursor?: string): Promise<AuditPage> {
  return request(`/api/audit?${query({ ...filters, cursor, limit: 50 })}`);
}

export function listGisLayers(): Promise<{ layers: GisLayerView[] }> {
  return request("/api/gis");
}

/** Replaces one layer with a file (POST /api/gis): CSV, FlatGeobuf or GeoJSON, told by its name. */
export function importGisFile(file: File, layer: GisLayerName | ""): Promise<{ layer: GisLayerName; features: number }> {
  const type = /\.csv$/i.test(file.name) ? "text/csv" : /\.fgb$/i.test(file.name) ? "application/flatgeobuf" : "application/geo+json";
  return request(`/api/gis?${query({ layer, name: file.name })}`, { method: "POST", body: file, headers: { "content-type": type } });
}

export function listSubscriptions(): Promise<{ subscriptions: SubscriptionView[] }> {
  return request("/api/subscriptions");
}

export function createSubscription(subscription: { name: string; url: string; event_types: EventType[]; body_format: BodyFormat }): Promise<SubscriptionWithSecret> {
  return request("/api/subscriptions", { method: "POST", body: JSON.stringify(subscription) });
}

export function setSubscriptionEnabled(id: string, enabled: boolean): Promise<SubscriptionView> {
  return request(`/api/subscriptions/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify({ enabled }) });
}

export function removeSubscription(id: string): Promise<SubscriptionView> {
  return request(`/api/subscriptions/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function listDeliveries(id: string): Promise<DeliveryPage> {
  return request(`/api/subscriptions/${encodeURIComponent(id)}/deliveries?limit=20`);
}

/** The roster with each unit's state, the incident it serves and its last position (GET /api/units). */
export function listUnits(): Promise<{ units: Unit[] }> {
  return request("/api/units");
}

/** The units that may be sent to the incident now, nearest first, each with why (GET /api/incidents/{id}/units). */
export function recommendUnits(incidentId: string, limit: number): Promise<Recommendation> {
  return request(`/api/incidents/${encodeURIComponent(incidentId)}/units?limit=${limit}`);
}

/** A crew's report entered by the dispatcher (POST /api/units/{id}/state); a clearing may say how its incident ended. */
export function changeUnitState(id: string, state: UnitState, disposition?: string): Promise<Unit> {
  return request(`/api/units/${encodeURIComponent(id)}/state`, { method: "POST", body: JSON.stringify({ state, ...(disposition ? { disposition } : {}) }) });
}

/** Reverts the unit's move `changeId` (a report, a send, a clearing) made by this person moments ago (POST /api/units/{id}/undo-state). */
export function undoUnitState(id: string, changeId: string): Promise<Unit> {
  return request(`/api/units/${encodeURIComponent(id)}/undo-state`, { method: "POST", body: JSON.stringify({ change_id: changeId }) });
}

/** Sends units to an incident (POST /api/incidents/{id}/units); `confirm` sends units that are not free. */
export function assignUnits(incidentId: string, unitIds: string[], confirm: boolean): Promise<AssignUnitsAnswer> {
  return request(`/api/incidents/${encodeURIComponent(incidentId)}/units`, { method: "POST", body: JSON.stringify({ unit_ids: unitIds, confirm }) });
}

/** Adds a unit to the roster (POST /api/units). */
export function createUnit(fields: { call_sign: string; type: string; name?: string; station?: string; station_latitude?: number; station_longitude?: number }): Promise<Unit> {
  return request("/api/units", { method: "POST", body: JSON.stringify(fields) });
}

/** Puts a unit in or out of service (PATCH /api/units/{id}). */
export function setUnitInService(id: string, inService: boolean): Promise<Unit> {
  return request(`/api/units/${encodeURIComponent(id)}`, { method: "PATCH", body: JSON.stringify({ in_service: inService }) });
}

/** Every response plan, the centre's or the default (GET /api/response-plans). */
export function listResponsePlans(): Promise<{ plans: ResponsePlan[] }> {
  return request("/api/response-plans");
}

/** Sets one response plan (PUT /api/response-plans/{emergency_type}/{severity}). */
export function setResponsePlan(plan: { emergency_type: string; severity: string; slots: PlanSlot[] }): Promise<ResponsePlan> {
  return request(`/api/response-plans/${encodeURIComponent(plan.emergency_type)}/${encodeURIComponent(plan.severity)}`, {
    method: "PUT",
    body: JSON.stringify({ slots: plan.slots }),
  });
}

/** Adds every unit of a CSV roster, or none (POST /api/units/import). */
export function importUnits(csv: string): Promise<{ created: number }> {
  return request("/api/units/import", { method: "POST", body: JSON.stringify({ csv }) });
}
