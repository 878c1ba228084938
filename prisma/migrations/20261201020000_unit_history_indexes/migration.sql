-- Intervals per unit (lib/reports/unit-intervals.ts, docs/reports.md): the report reads the
-- assignments made in its window, then each assignment's own moves (the unit's history from its
-- assignment to its clearing), so its cost follows the window, not every assignment ever stored.
CREATE INDEX "unit_assignments_assigned_at_idx" ON "unit_assignments" ("assigned_at");
CREATE INDEX "unit_state_changes_unit_id_at_idx" ON "unit_state_changes" ("unit_id", "at");
-- An incident's EIDO names every unit it was sent, cleared or not (lib/eido/export.ts); the
-- partial index of migration units holds the open assignments only.
CREATE INDEX "unit_assignments_incident_id_assigned_at_idx" ON "unit_assignments" ("incident_id", "assigned_at");
