import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/to-call-record";
import { withDatabase } from "../db/with-database";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import type { CivicAddress } from "../geocoding/types";
import { notFound } from "../domain-error";
import { type IncidentFields, toIncidentRecord } from "../incidents/to-incident-record";
import { notesForExport } from "../notes/list";
import { type IncidentAssignment, incidentAssignments } from "../units/read";
import { buildEido, type Eido, type EidoRelation, type EidoStatusChange, type EidoUnit } from "./build";
import { type ResourceStatus, UNIT_STATUSES } from "./registry";

/**
 * The incident as an EIDO: the incident row, its calls oldest first with their status history and
 * latest location correction, the dispatchers' notes (lib/notes) oldest first, and the incidents it
 * was merged with or split from, and the units sent to it. An incident merged away is read from its merge record
 * (incident_merges): its EIDO says it was merged, and into which.
 */

interface HistoryRow {
  call_id: string;
  from_status: string | null;
  status: string;
  changed_at: Date;
  changed_by: string;
  changed_by_name: string | null;
}

interface MergeRow {
  merged_id: string;
  into_id: string;
  record: IncidentFields;
  merged_at: Date;
}

async function relationsOf(db: Db, id: string, splitFrom: string | null, createdAt: Date | null): Promise<EidoRelation[]> {
  const merges = await db.$queryRaw<MergeRow[]>`
    SELECT merged_id, into_id, record, merged_at FROM incident_merges WHERE into_id = ${id} OR merged_id = ${id} ORDER BY merged_at`;
  const splits = await db.$queryRaw<{ id: string; created_at: Date }[]>`SELECT id, created_at FROM incidents WHERE split_from = ${id} ORDER BY created_at`;
  return [
    ...merges.map((merge): EidoRelation =>
      merge.into_id === id
        ? { incidentId: merge.merged_id, direction: "REPLACING", at: merge.merged_at }
        : { incidentId: merge.into_id, direction: "REPLACED", at: merge.merged_at },
    ),
    ...(splitFrom !== null && createdAt !== null ? [{ incidentId: splitFrom, direction: "SPLIT" as const, at: createdAt }] : []),
    ...splits.map((split) => ({ incidentId: split.id, direction: "SPLIT" as const, at: split.created_at })),
  ];
}

/** One entry per unit, in the order they were first sent: every assignment's moves, the latest's status. */
function unitsOf(assignments: readonly IncidentAssignment[]): EidoUnit[] {
  const units = new Map<string, EidoUnit>();
  for (const assignment of assignments) {
    const open = assignment.cleared_at === null;
    const status: ResourceStatus = open && assignment.unit_state in UNIT_STATUSES ? (assignment.unit_state as ResourceStatus) : "cleared";
    const unit = units.get(assignment.unit_id) ?? {
      id: assignment.unit_id,
      callSign: assignment.call_sign,
      name: assignment.name,
      type: assignment.type,
      status,
      moves: [],
    };
    unit.status = status;
    unit.moves.push(
      { status: "dispatched", at: assignment.assigned_at, by: assignment.assigned_by_name, byRef: assignment.assigned_by },
      ...assignment.moves.map((move) => ({ status: move.state as ResourceStatus, at: move.at, by: move.changed_by_name, byRef: move.changed_by })),
      ...(open ? [] : [{ status: "cleared" as const, at: assignment.cleared_at!, by: null, byRef: null }]),
    );
    units.set(unit.id, unit);
  }
  return [...units.values()];
}

/** The EIDO of one incident, read from `db`; undefined when it never existed. */
export async function readIncidentEido(db: Db, id: string): Promise<Eido | undefined> {
  const domain = getConfig().CENTRE_DOMAIN;
  const incident = await db.incident.findUnique({ where: { id } });
  if (!incident) {
    const [merge] = await db.$queryRaw<MergeRow[]>`SELECT merged_id, into_id, record, merged_at FROM incident_merges WHERE merged_id = ${id}`;
    if (!merge) return undefined;
    return buildEido({ domain, incident: toIncidentRecord(merge.record), calls: [], notes: [], relations: await relationsOf(db, id, null, null), units: [], merged: true });
  }
  const calls = await db.$queryRaw<(ListedCall & { locationCorrectedAt: Date | null; locationCivic: CivicAddress | null })[]>(Prisma.sql`
    SELECT ${selectList}, c.location_civic AS "locationCivic",
      (SELECT max(k.changed_at) FROM call_corrections k WHERE k.call_id = c.id AND k.field = 'location') AS "locationCorrectedAt"
    FROM calls c WHERE c.incident_id = ${id} ORDER BY c.occurred_at, c.id`);
  const history = await db.$queryRaw<HistoryRow[]>`
    SELECT h.call_id, h.from_status, h.status, h.changed_at, h.changed_by, h.changed_by_name
    FROM call_status_changes h JOIN calls c ON c.id = h.call_id
    WHERE c.incident_id = ${id} ORDER BY h.changed_at, h.id`;
  const byCall = new Map<string, EidoStatusChange[]>();
  for (const row of history) {
    const change = { from: row.from_status, to: row.status, at: row.changed_at, by: row.changed_by_name ?? row.changed_by, byRef: row.changed_by };
    const list = byCall.get(row.call_id);
    if (list) list.push(change);
    else byCall.set(row.call_id, [change]);
  }
  const notes = await notesForExport(db, id);
  return buildEido({
    domain,
    incident: toIncidentRecord(incident),
    calls: calls.map((call) => ({ ...toCallRecord(call), history: byCall.get(call.id) ?? [], locationCorrectedAt: call.locationCorrectedAt, locationCivic: call.locationCivic })),
    notes: notes.map((note) => ({ id: note.id, at: new Date(note.created_at), author: note.author, text: note.text })),
    relations: await relationsOf(db, id, incident.splitFrom, incident.createdAt),
    units: unitsOf(await incidentAssignments(db, id)),
    merged: false,
  });
}

/** GET /api/incidents/{id}/eido: also for an incident merged away (its EIDO names the merge). */
export async function getIncidentEido(id: string): Promise<Eido> {
  return withDatabase(async (db) => {
    const eido = await readIncidentEido(db, id);
    if (!eido) throw notFound(`No incident with id ${id}`);
    return eido;
  });
}
