/**
 * Units, incidents, assignments and their moves written straight into the tables as plain data
 * (multi-row INSERTs), for the intervals per unit (lib/reports/unit-intervals.ts): the
 * hand-checked fixture of tests/integration/unit-intervals.test.ts and the 10,000 assignments of
 * bench/unit-intervals.ts. The times are the data's, not the clock's.
 */

export interface HistoryUnit {
  id: string;
  callSign: string;
  type: string;
}

export interface HistoryIncident {
  id: string;
  /** null: not an exercise's; else the exercise it belongs to (simulation). */
  exerciseId: string | null;
  /** A simulated incident (an exercise's always is); default: an exercise's. */
  simulation?: boolean;
  at: Date;
}

export interface HistoryAssignment {
  unitId: string;
  incidentId: string;
  at: Date;
  clearedAt: Date | null;
  /** The unit's moves after its dispatch (the dispatched row is written at `at`). */
  moves: { state: string; at: Date }[];
}

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
const time = (at: Date) => `'${at.toISOString()}'::timestamptz`;
const BATCH = 2_000;

function batches<T>(rows: readonly T[], insert: string, values: (row: T) => string): string[] {
  const statements: string[] = [];
  for (let first = 0; first < rows.length; first += BATCH) {
    statements.push(`${insert} VALUES ${rows.slice(first, first + BATCH).map(values).join(",\n")}`);
  }
  return statements;
}

/** The statements, in order: units, incidents, assignments, then every unit's history rows. */
export function unitHistorySql(data: { units: HistoryUnit[]; incidents: HistoryIncident[]; assignments: HistoryAssignment[] }): string[] {
  const changes = data.assignments.flatMap((assignment) => [
    { unitId: assignment.unitId, incidentId: assignment.incidentId, state: "dispatched", at: assignment.at },
    ...assignment.moves.map((move) => ({ unitId: assignment.unitId, incidentId: assignment.incidentId, ...move })),
    ...(assignment.clearedAt ? [{ unitId: assignment.unitId, incidentId: null, state: "available", at: assignment.clearedAt }] : []),
  ]);
  return [
    ...batches(data.units, "INSERT INTO units (id, call_sign, name, type, state)", (unit) =>
      `(${text(unit.id)}, ${text(unit.callSign)}, ${text(unit.callSign)}, ${text(unit.type)}, 'available')`,
    ),
    ...batches(
      data.incidents,
      `INSERT INTO incidents (id, emergency_type, severity, status, location, location_key, first_call_at, last_call_at, call_count,
        simulation, exercise_id)`,
      (incident) =>
        `(${text(incident.id)}, 'structure_fire', 'high', 'dispatched', 'Fixture St', 'fixture st', ${time(incident.at)}, ${time(incident.at)}, 1, ` +
        `${incident.simulation ?? incident.exerciseId !== null}, ${incident.exerciseId === null ? "NULL" : text(incident.exerciseId)})`,
    ),
    ...batches(
      data.assignments,
      "INSERT INTO unit_assignments (unit_id, incident_id, assigned_at, assigned_by, assigned_by_name, cleared_at)",
      (assignment) =>
        `(${text(assignment.unitId)}, ${text(assignment.incidentId)}, ${time(assignment.at)}, 'key:fixture', 'Fixture', ` +
        `${assignment.clearedAt ? time(assignment.clearedAt) : "NULL"})`,
    ),
    ...batches(changes, "INSERT INTO unit_state_changes (unit_id, state, incident_id, at, changed_by, changed_by_name)", (change) =>
      `(${text(change.unitId)}, ${text(change.state)}, ${change.incidentId === null ? "NULL" : text(change.incidentId)}, ${time(change.at)}, 'key:fixture', 'Fixture')`,
    ),
  ];
}
