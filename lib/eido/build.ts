import type { CallRecord } from "../calls/schema";
import type { LocationSource, Precision } from "../geocoding/types";
import type { IncidentRecord } from "../incidents/schema";

/**
 * An incident as a NENA Emergency Incident Data Object (NENA-STA-021.1a, JSON; docs/integrations.md,
 * "EIDO"): pure, from what lib/eido/export.ts reads. Components are referenced by their `$id`
 * (URNs under the issuing element), each with the prologue the standard requires.
 */

export const ISSUING_ELEMENT = "mayday";
const AGENCY_ID = "urn:mayday:agency:mayday";

export interface EidoStatusChange {
  from: string | null;
  to: string;
  at: Date;
  by: string;
}

export interface EidoCall extends CallRecord {
  history: EidoStatusChange[];
}

/** A dispatcher's note on the incident (lib/notes). */
export interface EidoNote {
  id: string;
  at: Date;
  author: string;
  text: string;
}

export interface EidoInput {
  incident: IncidentRecord;
  calls: readonly EidoCall[];
  notes: readonly EidoNote[];
}

type Reference = { $ref: string };
type Component = { $id: string; lastUpdateTimeStamp: string; updatedByAgencyReference: Reference } & Record<string, unknown>;

export interface Eido extends Component {
  eidoVersion: "1.0";
  issuingElementIdentification: string;
  agencyComponent: Component[];
  incidentComponent: Component;
  callComponent: Component[];
  callbackComponent: Component[];
  locationComponent: Component[];
  notesComponent: Component[];
}

/** The incident tracking identifier (NENA's urn:emergency:uid:incidentid form). */
export const incidentTrackingId = (id: string) => `urn:emergency:uid:incidentid:${id}:${ISSUING_ELEMENT}`;
export const callTrackingId = (conversationId: string) =>
  `urn:emergency:uid:callid:${encodeURIComponent(conversationId)}:${ISSUING_ELEMENT}`;

/** Mayday's emergency types in the incident type categories (the registry text Mayday uses). */
const INCIDENT_CATEGORY: Record<string, string> = {
  structure_fire: "Fire",
  evacuation_assistance: "Rescue",
  trapped_person: "Rescue",
  medical_emergency: "Medical",
  shelter_information: "Public Service",
  flooding: "Weather",
  wind_damage: "Weather",
  power_outage: "Utility",
  evacuation_needed: "Rescue",
  building_collapse: "Rescue",
  gas_leak: "Hazmat",
  debris_injury: "Medical",
  building_damage: "Public Service",
  vehicle_accident: "Traffic",
  power_lines_down: "Utility",
  shelter_needed: "Public Service",
  medical_injuries: "Medical",
};
export const incidentCategory = (emergencyType: string) => INCIDENT_CATEGORY[emergencyType] ?? "Other";

/** Severity as the standard's priority identifier (highest .. lowest). */
const PRIORITY: Record<string, string> = { critical: "highest", high: "high", moderate: "normal" };
export const priorityOf = (severity: string) => PRIORITY[severity] ?? "normal";

/** The Incident Status registry's open/closed, from Mayday's workflow status. */
const statusRegistryText = (status: string) => (status === "resolved" || status === "failed" ? "Closed" : status === "active" ? "Open" : "Dispatched");

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
 * A PIDF-LO location: the civic address as spoken (LOC), and the geodetic point when known: a
 * circle of its uncertainty radius in metres (RFC 5491's shape; a bare point when the radius is
 * unknown), its method naming who located it and how exactly ("gazetteer: locality"; an incident's
 * only its best call's precision).
 */
export function pidfLo(entity: string, spoken: string, point: EidoPoint): string {
  const { latitude, longitude, uncertaintyMeters: radius } = point;
  const shape =
    radius === null
      ? `<gml:Point srsName="urn:ogc:def:crs:EPSG::4326"><gml:pos>${latitude} ${longitude}</gml:pos></gml:Point>`
      : `<gs:Circle srsName="urn:ogc:def:crs:EPSG::4326"><gml:pos>${latitude} ${longitude}</gml:pos>` +
        `<gs:radius uom="urn:ogc:def:uom:EPSG::9001">${radius}</gs:radius></gs:Circle>`;
  const method =
    point.precision === null ? "" : `<gp:method>${point.source === null ? "" : `${point.source}: `}${point.precision}</gp:method>`;
  const geodetic =
    latitude !== null && longitude !== null ? `<gp:geopriv><gp:location-info>${shape}</gp:location-info>${method}</gp:geopriv>` : "";
  return (
    `<presence xmlns="urn:ietf:params:xml:ns:pidf" xmlns:gp="urn:ietf:params:xml:ns:pidf:geopriv10" ` +
    `xmlns:ca="urn:ietf:params:xml:ns:pidf:geopriv10:civicAddr" xmlns:gml="http://www.opengis.net/gml" ` +
    `xmlns:gs="http://www.opengis.net/pidflo/1.0" entity="${xmlText(entity)}">` +
    `<tuple id="location"><status>${geodetic}<gp:geopriv><gp:location-info><ca:civicAddress><ca:LOC>${xmlText(spoken)}</ca:LOC>` +
    `</ca:civicAddress></gp:location-info></gp:geopriv></status></tuple></presence>`
  );
}

/** The incident's radius: the smallest of its calls of its (best) precision. */
function incidentUncertainty(incident: IncidentRecord, calls: readonly CallRecord[]): number | null {
  const radii = calls.flatMap((call) =>
    call.location_precision === incident.location_precision && call.location_uncertainty_m !== null ? [call.location_uncertainty_m] : [],
  );
  return radii.length > 0 ? Math.min(...radii) : null;
}

export function buildEido({ incident, calls, notes }: EidoInput): Eido {
  const agency = { $ref: AGENCY_ID };
  const stamp = (at: string | Date) => (typeof at === "string" ? at : at.toISOString());
  const component = (id: string, at: string | Date, fields: Record<string, unknown>): Component => ({
    $id: id,
    lastUpdateTimeStamp: stamp(at),
    updatedByAgencyReference: agency,
    ...fields,
  });
  const incidentId = incidentTrackingId(incident.id);
  const updatedAt = [incident.last_call_at, ...calls.flatMap((call) => call.history.map((change) => change.at.toISOString()))]
    .sort()
    .at(-1)!;

  const locationComponent: Component[] = [
    component(`urn:mayday:location:incident:${incident.id}`, updatedAt, {
      locationTypeDescriptionRegistryText: "Incident",
      locationDescriptionText: incident.location,
      // The incident's centre is as exact as its best call.
      locationByValue: pidfLo(incidentId, incident.location, {
        latitude: incident.latitude,
        longitude: incident.longitude,
        precision: incident.location_precision,
        uncertaintyMeters: incidentUncertainty(incident, calls),
        source: null,
      }),
    }),
  ];
  const notesComponent: Component[] = [];
  const callbackComponent: Component[] = [];
  const callComponent = calls.map((call) => {
    const callId = callTrackingId(call.conversation_id);
    const callAt = new Date(call.timestamp * 1000).toISOString();
    const lastChange = call.history.at(-1)?.at ?? callAt;
    const locationId = `urn:mayday:location:call:${encodeURIComponent(call.conversation_id)}`;
    locationComponent.push(
      component(locationId, callAt, {
        locationTypeDescriptionRegistryText: "Caller",
        locationDescriptionText: call.location,
        locationByValue: pidfLo(callId, call.location, {
          latitude: call.latitude,
          longitude: call.longitude,
          precision: call.location_precision,
          uncertaintyMeters: call.location_uncertainty_m,
          source: call.location_source,
        }),
      }),
    );
    const noteIds: Reference[] = [];
    const summaryId = `urn:mayday:note:summary:${encodeURIComponent(call.conversation_id)}`;
    notesComponent.push(component(summaryId, callAt, { notesActionComments: xmlText(call.summary) }));
    noteIds.push({ $ref: summaryId });
    call.history.forEach((change, index) => {
      const noteId = `urn:mayday:note:status:${encodeURIComponent(call.conversation_id)}:${index}`;
      const move = change.from === null ? `Call received as ${change.to}` : `Status ${change.from} to ${change.to}`;
      notesComponent.push(component(noteId, change.at, { notesActionComments: xmlText(`${move} (${change.by})`) }));
      noteIds.push({ $ref: noteId });
    });
    const fields: Record<string, unknown> = {
      callStateRegistryText: call.call_successful ? "callEnd" : "callAbandoned",
      standardPrimaryCallType: "emergency",
      localCallType: call.simulation ? "simulated" : "voice-agent",
      direction: "incoming",
      priorityIdentifier: priorityOf(call.severity),
      callStartTimestamp: callAt,
      locationReference: [{ $ref: locationId }],
      notesReference: noteIds,
    };
    if (call.caller_phone) {
      const callbackId = `urn:mayday:callback:${encodeURIComponent(call.conversation_id)}`;
      callbackComponent.push(component(callbackId, callAt, { callBackInformationUri: [`tel:${call.caller_phone.replace(/[^\d+]/g, "")}`] }));
      fields.callBackReference = { $ref: callbackId };
    }
    return component(callId, lastChange, fields);
  });
  const incidentNoteIds = notes.map((note) => {
    const noteId = `urn:mayday:note:incident:${note.id}`;
    notesComponent.push(component(noteId, note.at, { notesActionComments: xmlText(`${note.text} (${note.author})`) }));
    return { $ref: noteId };
  });

  return {
    ...component(`urn:mayday:eido:${incident.id}`, updatedAt, {}),
    eidoVersion: "1.0",
    issuingElementIdentification: ISSUING_ELEMENT,
    agencyComponent: [
      component(AGENCY_ID, updatedAt, {
        agencyRoleDescriptionRegistryText: ["Primary"],
        agencyType: ["psap"],
        incidentOwningAgencyIndicator: true,
      }),
    ],
    incidentComponent: component(incidentId, updatedAt, {
      incidentTypeCommonRegistryText: incidentCategory(incident.emergency_type),
      incidentTypeInternalCode: incident.emergency_type,
      incidentTypeInternalText: incident.emergency_type.replace(/_/g, " "),
      incidentStatusInternalText: [incident.status],
      incidentStatusCommonRegistryText: [statusRegistryText(incident.status)],
      internalIncidentId: incident.id,
      incidentPriorityInternalText: incident.severity,
      locationReference: [{ $ref: locationComponent[0].$id }],
      notesReference: incidentNoteIds,
    }),
    callComponent,
    callbackComponent,
    locationComponent,
    notesComponent,
  };
}
