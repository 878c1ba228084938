import { selectList } from "../calls/query";
import { type ListedCall, toCallRecord } from "../calls/record";
import { withCallStore } from "../calls/store";
import type { Db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { notFound } from "../domain-error";
import { toIncidentRecord } from "../incidents/record";
import { notesForExport } from "../notes/list";
import { buildEido, type Eido, type EidoNote, type EidoStatusChange } from "./build";

/**
 * The incident as an EIDO: the incident row, its calls oldest first with their status history, and
 * the dispatchers' notes (lib/notes), oldest first, each in notesComponent referenced from
 * incidentComponent.
 */

interface HistoryRow {
  call_id: string;
  from_status: string | null;
  status: string;
  changed_at: Date;
  changed_by: string;
  changed_by_name: string | null;
}

async function readNotes(db: Db, incidentId: string): Promise<EidoNote[]> {
  return (await notesForExport(db, incidentId)).map((note) => ({ id: note.id, at: new Date(note.created_at), author: note.author.name, text: note.text }));
}

/** The EIDO of one incident, read from `db`; undefined when it does not exist. */
export async function readIncidentEido(db: Db, id: string): Promise<Eido | undefined> {
  const incident = await db.incident.findUnique({ where: { id } });
  if (!incident) return undefined;
  const calls = await db.$queryRaw<ListedCall[]>(Prisma.sql`
    SELECT ${selectList} FROM calls c WHERE c.incident_id = ${id} ORDER BY c.occurred_at, c.id`);
  const history = await db.$queryRaw<HistoryRow[]>`
    SELECT h.call_id, h.from_status, h.status, h.changed_at, h.changed_by, h.changed_by_name
    FROM call_status_changes h JOIN calls c ON c.id = h.call_id
    WHERE c.incident_id = ${id} ORDER BY h.changed_at, h.id`;
  const byCall = new Map<string, EidoStatusChange[]>();
  for (const row of history) {
    const change = { from: row.from_status, to: row.status, at: row.changed_at, by: row.changed_by_name ?? row.changed_by };
    const list = byCall.get(row.call_id);
    if (list) list.push(change);
    else byCall.set(row.call_id, [change]);
  }
  return buildEido({
    incident: toIncidentRecord(incident),
    calls: calls.map((call) => ({ ...toCallRecord(call), history: byCall.get(call.id) ?? [] })),
    notes: await readNotes(db, id),
  });
}

/** GET /api/incidents/{id}/eido. */
export async function getIncidentEido(id: string): Promise<Eido> {
  return withCallStore(async (db) => {
    const eido = await readIncidentEido(db, id);
    if (!eido) throw notFound(`No incident with id ${id}`);
    return eido;
  });
}
