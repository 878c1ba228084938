-- The queue's times (docs/dashboard.md, "Times"). queued_at: the earliest call_queue_time of an
-- incident's calls (the platform's time, or the receipt when that is implausible: before 2000,
-- more than a day before receipt, or ahead of it), kept by incidents_add_calls and
-- refresh_incidents; the queue orders, ages and reminds by it, while first_call_at keeps the
-- platform's times for grouping. dispatched_at: when the incident was first moved to dispatched or
-- en route (lib/incidents/status.ts), so its timer says "since dispatched".
ALTER TABLE "incidents" ADD COLUMN "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  ADD COLUMN "dispatched_at" TIMESTAMPTZ(3);

-- Existing incidents, without new change numbers (no outbound events for a backfill): the
-- feed's triggers are off for these statements. The rule inline: call_queue_time is defined after
-- the migrations (prisma/functions).
ALTER TABLE "incidents" DISABLE TRIGGER USER;
UPDATE "incidents" i SET "queued_at" = a.queued
FROM (
  SELECT c.incident_id, min(CASE WHEN c.occurred_at < TIMESTAMPTZ '2000-01-01 00:00:00+00' OR c.occurred_at < c.created_at - INTERVAL '1 day'
    OR c.occurred_at > c.created_at + INTERVAL '5 minutes' THEN c.created_at ELSE c.occurred_at END) AS queued
  FROM calls c GROUP BY c.incident_id
) a
WHERE a.incident_id = i.id;
UPDATE "incidents" i SET "dispatched_at" = d.at
FROM (
  SELECT c.incident_id, min(s.changed_at) AS at FROM call_status_changes s JOIN calls c ON c.id = s.call_id
  WHERE s.status IN ('dispatched', 'enroute') GROUP BY c.incident_id
) d
WHERE d.incident_id = i.id AND i.status <> 'active';
ALTER TABLE "incidents" ENABLE TRIGGER USER;

CREATE INDEX "incidents_severity_status_queued_at_id_idx" ON "incidents" ("severity", "status", "queued_at", "id");
CREATE INDEX "incidents_status_queued_at_id_idx" ON "incidents" ("status", "queued_at", "id");
