-- A note that is a unit's radio report (POST /api/incidents/{id}/notes with `unit_id`, docs/incidents.md,
-- "Notes"): the unit and its call sign as named when the note was kept; null for every other note.
ALTER TABLE "incident_notes" ADD COLUMN "unit_id" TEXT, ADD COLUMN "unit_call_sign" TEXT;
