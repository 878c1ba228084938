-- The dashboard's incident picture (docs/dashboard.md, "Incidents"): indexes only.

-- The incident queue: one backward-free keyset branch per (severity, open status), oldest first call first.
-- CreateIndex
CREATE INDEX "incidents_severity_status_first_call_at_id_idx" ON "incidents"("severity", "status", "first_call_at", "id");

-- The incident map: open incidents in a box, read from the index alone.
-- CreateIndex
CREATE INDEX "incidents_status_latitude_longitude_severity_call_count_id_idx" ON "incidents"("status", "latitude", "longitude", "severity", "call_count", "id");

-- The incident map's recently closed incidents.
-- CreateIndex
CREATE INDEX "incidents_status_updated_at_idx" ON "incidents"("status", "updated_at");

-- exercises=hide on incidents: one probe per incident for an exercise call of it.
-- CreateIndex
CREATE INDEX "calls_incident_id_simulation_table_name_idx" ON "calls"("incident_id", "simulation", "table_name");
