-- Real before training (docs/dashboard.md, "Incidents"): the queue reads real incidents and
-- training ones (simulated: an exercise's or the simulator's) apart, each kind per (severity,
-- status) on the queue's time, by priority and by time received, from these indexes alone.
CREATE INDEX "incidents_simulation_severity_status_queued_at_id_idx" ON "incidents" ("simulation", "severity", "status", "queued_at", "id");
CREATE INDEX "incidents_simulation_status_queued_at_id_idx" ON "incidents" ("simulation", "status", "queued_at", "id");

-- Live calls everywhere (docs/dashboard.md, "Live calls"): the calls on the line, by incident. A
-- handful at any time, so the queue's, the alerts' and the map's rows each probe it for their own
-- incident whatever the incident's size (raw SQL: Prisma's schema cannot state a partial index).
CREATE INDEX "calls_on_line_incident_idx" ON "calls" ("incident_id", "occurred_at") WHERE "on_line";
