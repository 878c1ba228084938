import type { CallRecord } from "../calls/schema";
import type { CivicAddress, LocationSource, Precision } from "../geocoding/types";
import type { IncidentRecord } from "../incidents/schema";
import { NANP_DIGITS } from "../calls/sanitise";
import { civicAddressOf } from "./civic";
import { AGENCY_ROLE, incidentStatusCode, incidentTypeCode, LOCATION_TYPES, type ResourceStatus, resourceTypeCode, UNIT_STATUSES } from "./registry";
import { lookupTable } from "../lookup-table";

/**
 * An incident as a NENA Emergency Incident Data Object (NENA-STA-021.1a, JSON; docs/integrations.md,
 * "EIDO"): pure, from what lib/eido/export.ts reads. Components are referenced by their `$id`, each
 * with the prologue the standard requires; the incident's and calls' ids are NENA's tracking
 * identifiers under the centre's domain, which is also the agency's id and the issuing element.
 */

export interface EidoStatusChange {
  from: string | null;
  to: string;
  at: Date;
  by: string;
  /** `user:<id>` or `key:<id>` for a person's or key's move; otherwise the system's name. */
  byRef: string;
}

export interface EidoCall extends CallRecord {
  history: EidoStatusChange[];
  /** When a dispatcher last corrected the call's location (null: as the agent reported it). */
  locationCorrectedAt: Date | null;
  /** The centre's GIS record its location matched, as the GIS held it then (null: another source placed it). */
  locationCivic: CivicAddress | null;
}

/** A dispatcher's note on the incident (lib/notes). */
export interface EidoNote {
  id: string;
  at: Date;
  author: { kind: "user" | "key"; id: string; name: string };
  text: string;
}

/**
 * Another incident this one was merged with or split from: REPLACING (it was merged into this
 * one), REPLACED (this one was merged into it), SPLIT (a call was split out of one into the other).
 */
export interface EidoRelation {
  incidentId: string;
  direction: "REPLACING" | "REPLACED" | "SPLIT";
  at: Date;
}

/** A unit sent to the incident (lib/units): its status on it and every move it made for it. */
export interface EidoUnit {
  id: string;
  callSign: string;
  name: string;
  type: string;
  /** Its latest assignment's: the unit's state while open, `cleared` once closed. */
  status: ResourceStatus;
  /** Each dispatch, move and clearing, oldest first; `by` null where no one is recorded (a clearing). */
  moves: { status: ResourceStatus; at: Date; by: string | null; byRef: string | null }[];
}

export interface EidoInput {
  /** The centre's domain (CENTRE_DOMAIN). */
  domain: string;
  incident: IncidentRecord;
  calls: readonly EidoCall[];
  notes: readonly EidoNote[];
  relations: readonly EidoRelation[];
  units: readonly EidoUnit[];
  /** The incident no longer exists: it was merged into another (a REPLACED relation says which). */
  merged: boolean;
}

type Reference = { $ref: string };
type Component = { $id: string; lastUpdateTimeStamp: string; updatedByAgencyReference: Reference } & Record<string, unknown>;

export interface Eido extends Component {
  eidoVersion: "1.0";
  issuingElementIdentification: string;
  agencyComponent: Component[];
  agentComponent: Component[];
  incidentComponent: Component;
  callComponent: Component[];
  callbackComponent: Component[];
  locationComponent: Component[];
  notesComponent: Component[];
  emergencyResourceComponent?: Component[];
  mergeComponent?: Component[];
  linkComponent?: Component[];
}

/** NENA's identifiers take at most 32 letters and digits before the domain: a UUID without its hyphens. */
const uniqueString = (id: string) => id.replace(/[^A-Za-z0-9]/g, "").slice(0, 32);

/** The Incident Tracking Identifier (NENA-STA-021.1a; urn:emergency:uid:incidentid:<id>:<domain>). */
export const incidentTrackingId = (id: string, domain: string) => `urn:emergency:uid:incidentid:${uniqueString(id)}:${domain}`;
/**
 * An agent as NENA names agents, an address under the agency's domain: a person or key acting in
 * Mayday (`user:<id>`, `key:<id>`) or the voice agent that took a call (`voiceagent:<agent id>`).
 */
const agentId = (ref: string, domain: string) => `${ref.replace(":", ".").replace(/[^A-Za-z0-9._-]/g, "-")}@${domain}`;

/**
 * The agent's roles (NENA-STA-021.1b's Agent Role registry, as NENA's sample spells it: "Call
 * Taking"): who took a call (a voice agent, or a person for a call of platform `call_taker`); a
 * person or key acting on the incident dispatches. The project's copy of the registries does not
 * hold this one, so these values follow the sample.
 */
const agentRoles = (ref: string, tookCall: boolean) =>
  ref.startsWith("voiceagent:") ? ["Call Taking"] : tookCall ? ["Call Taking", "Dispatching"] : ["Dispatching"];

/** Who took the call: the voice agent, or the person (or key) who took it (`agent_id` `user:<id>`, `key:<id>`). */
const callTaker = (call: Pick<EidoCall, "platform" | "agent_id">) => (call.platform === "call_taker" ? call.agent_id : `voiceagent:${call.agent_id}`);

/**
 * The call's state in the IANA Call States registry: on the line while the caller still talks to
 * the voice agent (its post-call event not in yet); abandoned only when it never connected (the
 * platform's call_initiation_failure: busy, no answer); otherwise ended. Whether the agent judged
 * the call successful says nothing of the line.
 */
export function callStateOf(call: Pick<CallRecord, "on_line" | "failure_reason">): "callAnswered" | "callAbandoned" | "callEnd" {
  if (call.on_line) return "callAnswered";
  return call.failure_reason === undefined ? "callEnd" : "callAbandoned";
}

/** Severity as the standard's priority identifier (highest .. lowest). */
const PRIORITY: Record<string, string> = lookupTable({ critical: "highest", high: "high", moderate: "normal" });
export const priorityOf = (severity: string) => PRIORITY[severity] ?? "normal";

/**
 * The caller's call-back URI, only when there is something to call back: an E.164 number as
 * `tel:`, a North American number written without its country code as one, other digits as a
 * local `tel:` with the centre's `phone-context`, a SIP URI as it is; an extension as `;ext=`.
 * Anonymous or unknown callers have none.
 */
export function callbackUri(callerPhone: string | null | undefined, domain: string): string | undefined {
  const text = callerPhone?.trim() ?? "";
  if (/^sips?:[^\s@]+@[^\s@]+$/i.test(text) && URL.canParse(text)) return text;
  // An extension said after the number ("ext 12", "x12", "extension 12") is RFC 3966's `;ext=`.
  const extension = /\s*(?:,|;)?\s*(?:ext\.?|extension|x)\s*(\d{1,8})$/i.exec(text);
  const ext = extension ? `;ext=${extension[1]}` : "";
  const digits = (extension ? text.slice(0, extension.index) : text).replace(/[\s().-]/g, "");
  if (/^\+[1-9]\d{6,14}$/.test(digits)) return `tel:${digits}${ext}`;
  if (NANP_DIGITS.test(digits)) return `tel:+1${digits}${ext}`;
  if (/^\d{3,15}$/.test(digits)) return `tel:${digits}${ext};phone-context=${domain}`;
  return undefined;
}

const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A located point as the EIDO's PIDF-LO carries it (docs/geocoding.md). */
export interface EidoPoint {
  latitude: number | null;
  longitude: number | null;
  precision: Precision | null;
  uncertaintyMeters: number | null;
  source: LocationSource | null;
}

/**
 * How the point was found, as a token of IANA's Method Tokens registry (RFC 4119): the platform's
 * coordinates as the device or caller gave them through the agent (`Manual`, a person stated them;
 * Mayday cannot tell a GPS fix from words), every point Mayday looked up from words (the centre's
 * GIS, a hosted geocoder, the gazetteer, the simulator's street set) `Derived`. Who located it and
 * how exactly stay in the API's location_source and location_precision; the radius says the rest.
 */
export const locationMethod = (source: LocationSource | null): "Manual" | "Derived" => (source === null || source === "platform" ? "Manual" : "Derived");

/** RFC 4119 usage rules: the location is not to be passed on beyond the emergency services. */
const USAGE_RULES = "<gp:usage-rules><gbp:retransmission-allowed>false</gbp:retransmission-allowed></gp:usage-rules>";
/** RFC 5139's elements in its schema's order, before and after LOC; RFC 6848's extensions (STP, HNP) after them all. */
const CIVIC_BEFORE_LOC = ["country", "A1", "A3", "PRD", "RD", "STS", "POD", "HNO", "HNS"] as const;
const CIVIC_AFTER_LOC = ["PC", "UNIT"] as const;
const CIVIC_EXTENSIONS = ["STP", "HNP"] as const;

/**
 * A PIDF-LO location: the civic address and, when known, the geodetic point. The civic address is
 * the centre's GIS record the words matched (`matched`, every NENA field Mayday imports; method
 * Derived), else RFC 5139 elements parsed from the words (method Manual, the caller said it); the
 * words themselves are always in LOC. The geodetic point is
 * a circle of its uncertainty radius in metres (RFC 5491's shape; a bare point when the radius is
 * unknown), its method naming who located it and how exactly ("gazetteer: locality"; an
 * incident's only its best call's precision). Each with usage rules.
 */
export function pidfLo(entity: string, spoken: string, point: EidoPoint, matched: CivicAddress | null = null): string {
  const { latitude, longitude, uncertaintyMeters: radius } = point;
  const shape =
    radius === null
      ? `<gml:Point srsName="urn:ogc:def:crs:EPSG::4326"><gml:pos>${latitude} ${longitude}</gml:pos></gml:Point>`
      : `<gs:Circle srsName="urn:ogc:def:crs:EPSG::4326"><gml:pos>${latitude} ${longitude}</gml:pos>` +
        `<gs:radius uom="urn:ogc:def:uom:EPSG::9001">${radius}</gs:radius></gs:Circle>`;
  const method = locationMethod(point.source);
  const geodetic =
    latitude !== null && longitude !== null
      ? `<tuple id="geodetic"><status><gp:geopriv><gp:location-info>${shape}</gp:location-info>${USAGE_RULES}<gp:method>${method}</gp:method></gp:geopriv></status></tuple>`
      : "";
  const civic = matched ?? civicAddressOf(spoken);
  const element = (prefix: string) => (name: keyof CivicAddress) => (civic[name] === undefined ? [] : [`<${prefix}:${name}>${xmlText(civic[name])}</${prefix}:${name}>`]);
  const elements = [
    ...CIVIC_BEFORE_LOC.flatMap(element("ca")),
    `<ca:LOC>${xmlText(spoken)}</ca:LOC>`,
    ...CIVIC_AFTER_LOC.flatMap(element("ca")),
    ...CIVIC_EXTENSIONS.flatMap(element("cae")),
  ];
  const civicMethod = matched ? locationMethod("centre_gis") : "Manual";
  return (
    `<presence xmlns="urn:ietf:params:xml:ns:pidf" xmlns:gp="urn:ietf:params:xml:ns:pidf:geopriv10" ` +
    `xmlns:gbp="urn:ietf:params:xml:ns:pidf:geopriv10:basicPolicy" ` +
    `xmlns:ca="urn:ietf:params:xml:ns:pidf:geopriv10:civicAddr" xmlns:cae="urn:ietf:params:xml:ns:pidf:geopriv10:civicAddr:ext" xmlns:gml="http://www.opengis.net/gml" ` +
    `xmlns:gs="http://www.opengis.net/pidflo/1.0" entity="${xmlText(entity)}">` +
    `${geodetic}<tuple id="civic"><status><gp:geopriv><gp:location-info><ca:civicAddress>${elements.join("")}` +
    `</ca:civicAddress></gp:location-info>${USAGE_RULES}<gp:method>${civicMethod}</gp:method></gp:geopriv></status></tuple></presence>`
  );
}

/** The incident's radius: the smallest of its calls of its (best) precision. */
function incidentUncertainty(incident: IncidentRecord, calls: readonly EidoCall[]): number | null {
  const radii = calls.flatMap((call) =>
    call.location_precision === incident.location_precision && call.location_uncertainty_m !== null ? [call.location_uncertainty_m] : [],
  );
  return radii.length > 0 ? Math.min(...radii) : null;
}

/** The incident's address is its first call's words: the record that call matched, when it still says those words. */
function incidentCivic(incident: IncidentRecord, calls: readonly EidoCall[]): CivicAddress | null {
  const first = calls.find((call) => call.location === incident.location && call.location_matched === incident.location_matched && call.locationCivic);
  return first?.locationCivic ?? null;
}

export function buildEido({ domain, incident, calls, notes, relations, units, merged }: EidoInput): Eido {
  const agency = { $ref: domain };
  const iso = (at: string | Date) => (typeof at === "string" ? new Date(at).toISOString() : at.toISOString());
  // Every agent a component names, with when it last acted: each gets its agentComponent.
  const agents = new Map<string, string>();
  const agentReference = (ref: string, at: string): Reference => {
    const known = agents.get(ref);
    if (known === undefined || known < at) agents.set(ref, at);
    return { $ref: agentId(ref, domain) };
  };
  const component = (id: string, at: string | Date, fields: Record<string, unknown>, agentRef?: string): Component => ({
    $id: id,
    lastUpdateTimeStamp: iso(at),
    updatedByAgencyReference: agency,
    ...(agentRef ? { updatedByAgentReference: agentReference(agentRef, iso(at)) } : {}),
    ...fields,
  });
  const incidentId = incidentTrackingId(incident.id, domain);
  const personal = (ref: string) => (/^(user|key):/.test(ref) ? ref : undefined);
  const takers = new Set(calls.map(callTaker));

  const notesComponent: Component[] = [];
  const callbackComponent: Component[] = [];
  const callLocations: Component[] = [];
  const callComponent = calls.map((call) => {
    const callId = call.tracking_id;
    const callAt = new Date(call.timestamp * 1000).toISOString();
    const lastChange = [callAt, ...call.history.map((change) => change.at.toISOString())].sort().at(-1)!;
    const locationId = `urn:mayday:location:call:${encodeURIComponent(call.conversation_id)}`;
    callLocations.push(
      component(locationId, call.locationCorrectedAt ?? callAt, {
        locationTypeDescriptionRegistryText: LOCATION_TYPES.caller,
        locationDescriptionText: call.location,
        locationByValue: pidfLo(callId, call.location, {
          latitude: call.latitude,
          longitude: call.longitude,
          precision: call.location_precision,
          uncertaintyMeters: call.location_uncertainty_m,
          source: call.location_source,
        }, call.locationCivic),
      }),
    );
    const noteIds: Reference[] = [];
    const summaryId = `urn:mayday:note:summary:${encodeURIComponent(call.conversation_id)}`;
    notesComponent.push(component(summaryId, callAt, { notesActionComments: xmlText(call.summary) }));
    noteIds.push({ $ref: summaryId });
    // The agent's own type, when a dispatcher corrected it.
    const agentType = call.original_emergency_type;
    if (agentType && agentType !== call.emergency_type) {
      const typeNoteId = `urn:mayday:note:type:${encodeURIComponent(call.conversation_id)}`;
      const text = `Agent reported ${agentType}; corrected to ${call.emergency_type}`;
      notesComponent.push(component(typeNoteId, lastChange, { notesActionComments: xmlText(text) }));
      noteIds.push({ $ref: typeNoteId });
    }
    call.history.forEach((change, index) => {
      const noteId = `urn:mayday:note:status:${encodeURIComponent(call.conversation_id)}:${index}`;
      const move = change.from === null ? `Call received as ${change.to}` : `Status ${change.from} to ${change.to}`;
      notesComponent.push(component(noteId, change.at, { notesActionComments: xmlText(`${move} (${change.by})`) }, personal(change.byRef)));
      noteIds.push({ $ref: noteId });
    });
    const fields: Record<string, unknown> = {
      callStateRegistryText: callStateOf(call),
      standardPrimaryCallType: "emergency",
      localCallType: call.simulation ? "simulated" : call.platform === "call_taker" ? "call-taker" : "voice-agent",
      direction: "incoming",
      priorityIdentifier: priorityOf(call.severity),
      callStartTimestamp: callAt,
      // The voice agent took the call (a simulated call's is the simulator), or a person did.
      agentReference: [agentReference(callTaker(call), callAt)],
      locationReference: [{ $ref: locationId }],
      notesReference: noteIds,
    };
    const uri = callbackUri(call.caller_phone, domain);
    if (uri) {
      const callbackId = `urn:mayday:callback:${encodeURIComponent(call.conversation_id)}`;
      callbackComponent.push(component(callbackId, callAt, { callBackInformationUri: [uri] }));
      fields.callBackReference = { $ref: callbackId };
    }
    return component(callId, lastChange, fields);
  });
  const incidentNoteIds = notes.map((note) => {
    const noteId = `urn:mayday:note:incident:${note.id}`;
    notesComponent.push(
      component(noteId, note.at, { notesActionComments: xmlText(`${note.text} (${note.author.name})`) }, `${note.author.kind}:${note.author.id}`),
    );
    return { $ref: noteId };
  });
  // Each unit with its status in NENA's registries and its own beside it; its moves, dated, as notes.
  const emergencyResourceComponent = units.map((unit) => {
    const noteIds = unit.moves.map((move, index) => {
      const noteId = `urn:mayday:note:unit:${unit.id}:${index}`;
      const text = `${unit.callSign} ${move.status.replaceAll("_", " ")}${move.by === null ? "" : ` (${move.by})`}`;
      notesComponent.push(component(noteId, move.at, { notesActionComments: xmlText(text) }, move.byRef === null ? undefined : personal(move.byRef)));
      return { $ref: noteId };
    });
    return component(`urn:mayday:unit:${unit.id}`, unit.moves.at(-1)!.at, {
      // The crew is not on the roster: no agent to name.
      agentReference: [],
      emergencyResourceTypeCommonRegistryText: resourceTypeCode(unit.type),
      emergencyResourceTypeInternalText: unit.type,
      emergencyResourceName: unit.name === unit.callSign ? unit.callSign : `${unit.callSign} (${unit.name})`,
      primaryUnitStatusRegistryText: UNIT_STATUSES[unit.status],
      secondaryUnitStatusRegistryText: [],
      resourceAttributeRegistryText: [],
      unitStatusInternal: [unit.status],
      notesReference: noteIds,
    });
  });
  const mergeComponent = relations.map((relation) =>
    component(`urn:mayday:merge:${uniqueString(incident.id)}:${uniqueString(relation.incidentId)}`, relation.at, {
      incidentTrackingIdentifier: incidentTrackingId(relation.incidentId, domain),
      incidentMergeDirectionCode: relation.direction,
    }),
  );
  const linkComponent = relations
    .filter((relation) => relation.direction === "SPLIT")
    .map((relation) =>
      component(`urn:mayday:link:${uniqueString(incident.id)}:${uniqueString(relation.incidentId)}`, relation.at, {
        incidentTrackingIdentifier: incidentTrackingId(relation.incidentId, domain),
        transactionReasonText: "Split: a call of one incident is about another emergency",
        linkDirectionCode: "RELATED",
      }),
    );

  // Every component's time, newest last: the document and the incident were last updated then.
  const parts = [...callComponent, ...callLocations, ...notesComponent, ...callbackComponent, ...emergencyResourceComponent, ...mergeComponent, ...linkComponent];
  const updatedAt = [iso(incident.last_call_at), ...parts.map((part) => part.lastUpdateTimeStamp)].sort().at(-1)!;
  const locationComponent = [
    component(`urn:mayday:location:incident:${incident.id}`, updatedAt, {
      locationTypeDescriptionRegistryText: LOCATION_TYPES.incident,
      locationDescriptionText: incident.location,
      // The incident's centre is as exact as its best call.
      locationByValue: pidfLo(incidentId, incident.location, {
        latitude: incident.latitude,
        longitude: incident.longitude,
        precision: incident.location_precision,
        uncertaintyMeters: incidentUncertainty(incident, calls),
        source: null,
      }, incidentCivic(incident, calls)),
    }),
    ...callLocations,
  ];

  return {
    ...component(incidentId, updatedAt, {}),
    eidoVersion: "1.0",
    issuingElementIdentification: domain,
    agencyComponent: [
      component(domain, updatedAt, {
        agencyRoleDescriptionRegistryText: [AGENCY_ROLE],
        agencyType: ["psap"],
        incidentOwningAgencyIndicator: true,
      }),
    ],
    agentComponent: [...agents].map(([ref, at]) =>
      component(agentId(ref, domain), at, { agentRoleRegistryText: agentRoles(ref, takers.has(ref)), agencyReference: agency }),
    ),
    incidentComponent: component(`urn:mayday:incident:${incident.id}`, updatedAt, {
      incidentTypeCommonRegistryText: incidentTypeCode(incident.emergency_type),
      incidentTypeInternalCode: incident.emergency_type,
      incidentTypeInternalText: incident.emergency_type.replace(/_/g, " "),
      incidentStatusInternalText: [merged ? "merged" : incident.status],
      incidentStatusCommonRegistryText: [merged ? "Closed" : incidentStatusCode(incident.status)],
      internalIncidentId: incident.id,
      incidentPriorityInternalText: incident.severity,
      locationReference: [{ $ref: locationComponent[0].$id }],
      notesReference: incidentNoteIds,
    }),
    callComponent,
    callbackComponent,
    locationComponent,
    notesComponent,
    ...(emergencyResourceComponent.length > 0 ? { emergencyResourceComponent } : {}),
    ...(mergeComponent.length > 0 ? { mergeComponent } : {}),
    ...(linkComponent.length > 0 ? { linkComponent } : {}),
  };
}
