-- Every status move of an incident (docs/incidents.md, "Dispatch reason and disposition"): the
-- move, who made it and when, the reason given for a dispatch without a unit, the disposition of a
-- close, and what the move did to the incident's calls and dispatch time, so an undo reverts
-- exactly that move (lib/incidents/undo-status.ts). Written only by lib/incidents/status.ts.
CREATE TABLE "incident_status_changes" (
  "id" TEXT NOT NULL,
  "incident_id" TEXT NOT NULL,
  "from_status" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
  "changed_by" TEXT NOT NULL,
  "changed_by_name" TEXT NOT NULL,
  "dispatch_reason" TEXT,
  "disposition" TEXT,
  -- The calls the move moved, each with the status it had: [{"id": ..., "from": ...}].
  "calls" JSONB NOT NULL DEFAULT '[]',
  "dispatched_at_before" TIMESTAMPTZ(3),
  -- An undo's row names the move it reverted.
  "undoes" TEXT,
  CONSTRAINT "incident_status_changes_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "incident_status_changes_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "incident_status_changes_incident_id_changed_at_idx" ON "incident_status_changes"("incident_id", "changed_at");
-- The intervals report's dispatches without a unit, by time.
CREATE INDEX "incident_status_changes_dispatch_reason_idx" ON "incident_status_changes"("changed_at") WHERE "dispatch_reason" IS NOT NULL;
