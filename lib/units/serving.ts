import type { Db } from "../db/client";

/** What an incident is, in words: its type and where, as the dashboard shows it. */
export function incidentInWords(incident: { emergency_type: string; location: string; location_matched: string | null }): string {
  const where = incident.location_matched ?? incident.location;
  return `a ${incident.emergency_type.replaceAll("_", " ")}${where ? ` at ${where}` : ""}`;
}

/**
 * The incidents `ids` in words (incidentInWords), by id: what a refusal says a unit is doing, so a
 * dispatcher reads "E12 is en route to a structure fire at 12 Main St", never an id.
 */
export async function incidentsInWords(db: Pick<Db, "$queryRaw">, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; emergency_type: string; location: string; location_matched: string | null }[]>`
    SELECT id, emergency_type, location, location_matched FROM incidents WHERE id = ANY(${wanted}::text[])`;
  return new Map(rows.map((row) => [row.id, incidentInWords(row)]));
}
