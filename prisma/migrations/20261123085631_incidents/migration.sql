-- Incidents (docs/incidents.md): calls about one emergency, grouped when stored.
-- CreateTable
CREATE TABLE "incidents" (
    "id" TEXT NOT NULL,
    "emergency_type" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "location" TEXT NOT NULL,
    "location_key" TEXT NOT NULL,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "first_call_at" TIMESTAMPTZ(3) NOT NULL,
    "last_call_at" TIMESTAMPTZ(3) NOT NULL,
    "call_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incidents_pkey" PRIMARY KEY ("id")
);

-- The normalised location text that groups calls without coordinates (lib/incidents/grouping.ts
-- uses this same function): lower case, runs of anything but letters and digits as one space.
CREATE FUNCTION "incident_location_key"(location TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT btrim(regexp_replace(lower(location), '[^a-z0-9]+', ' ', 'g'))
$$;

-- A call stored without an incident (a writer that does not group: seeding, tests, older paths)
-- gets one of its own. The placeholder's fields are filled from the call by the refresh below
-- (call_count 0 marks a placeholder).
CREATE FUNCTION "call_own_incident"() RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  new_id TEXT := gen_random_uuid()::text;
BEGIN
  INSERT INTO incidents (id, emergency_type, severity, status, location, location_key, first_call_at, last_call_at, call_count)
  VALUES (new_id, '', '', 'active', '', '', now(), now(), 0);
  RETURN new_id;
END;
$$;

-- Existing calls: each gets an incident of its own, through the default (evaluated per row).
-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "incident_id" TEXT NOT NULL DEFAULT call_own_incident(),
ADD COLUMN     "simulated_event" TEXT;

-- Recomputes what incidents derive from their calls: count, highest severity, first and last call,
-- centroid of the calls with coordinates; type and location from the first call while the incident
-- is a placeholder. Incidents left without calls (merged away) are deleted.
CREATE FUNCTION "refresh_incidents"(ids TEXT[]) RETURNS void LANGUAGE sql AS $$
  UPDATE incidents i SET
    call_count = a.call_count,
    severity = a.severity,
    first_call_at = a.first_call_at,
    last_call_at = a.last_call_at,
    latitude = a.latitude,
    longitude = a.longitude,
    emergency_type = CASE WHEN i.call_count = 0 AND i.emergency_type = '' THEN a.first_type ELSE i.emergency_type END,
    location = CASE WHEN i.call_count = 0 AND i.location = '' THEN a.first_location ELSE i.location END,
    location_key = CASE WHEN i.call_count = 0 AND i.location = '' THEN incident_location_key(a.first_location) ELSE i.location_key END,
    updated_at = now()
  FROM (
    SELECT c.incident_id,
      count(*)::int AS call_count,
      (ARRAY['moderate', 'high', 'critical'])[max(CASE c.severity WHEN 'critical' THEN 3 WHEN 'high' THEN 2 ELSE 1 END)] AS severity,
      min(c.occurred_at) AS first_call_at,
      max(c.occurred_at) AS last_call_at,
      avg(c.latitude) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL) AS latitude,
      avg(c.longitude) FILTER (WHERE c.latitude IS NOT NULL AND c.longitude IS NOT NULL) AS longitude,
      (array_agg(c.emergency_type ORDER BY c.occurred_at, c.id))[1] AS first_type,
      (array_agg(c.location ORDER BY c.occurred_at, c.id))[1] AS first_location
    FROM calls c WHERE c.incident_id = ANY(ids) GROUP BY c.incident_id
  ) a
  WHERE i.id = a.incident_id;
  DELETE FROM incidents i WHERE i.id = ANY(ids) AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.incident_id = i.id);
$$;

SELECT refresh_incidents(ARRAY(SELECT id FROM incidents));

-- Kept exact by statement-level triggers: one refresh per statement for the incidents it touched.
CREATE FUNCTION "incidents_after_call_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_incidents(ARRAY(SELECT DISTINCT incident_id FROM new_calls));
  RETURN NULL;
END;
$$;

CREATE FUNCTION "incidents_after_call_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_incidents(ARRAY(
    SELECT n.incident_id FROM new_calls n JOIN old_calls o ON o.id = n.id
    WHERE n.incident_id IS DISTINCT FROM o.incident_id OR n.severity IS DISTINCT FROM o.severity
       OR n.occurred_at IS DISTINCT FROM o.occurred_at OR n.latitude IS DISTINCT FROM o.latitude
       OR n.longitude IS DISTINCT FROM o.longitude
    UNION
    SELECT o.incident_id FROM new_calls n JOIN old_calls o ON o.id = n.id
    WHERE n.incident_id IS DISTINCT FROM o.incident_id));
  RETURN NULL;
END;
$$;

CREATE FUNCTION "incidents_after_call_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_incidents(ARRAY(SELECT DISTINCT incident_id FROM old_calls));
  RETURN NULL;
END;
$$;

CREATE TRIGGER "calls_incidents_insert" AFTER INSERT ON "calls" REFERENCING NEW TABLE AS new_calls
  FOR EACH STATEMENT EXECUTE FUNCTION "incidents_after_call_insert"();
CREATE TRIGGER "calls_incidents_update" AFTER UPDATE ON "calls" REFERENCING OLD TABLE AS old_calls NEW TABLE AS new_calls
  FOR EACH STATEMENT EXECUTE FUNCTION "incidents_after_call_update"();
CREATE TRIGGER "calls_incidents_delete" AFTER DELETE ON "calls" REFERENCING OLD TABLE AS old_calls
  FOR EACH STATEMENT EXECUTE FUNCTION "incidents_after_call_delete"();

-- CreateIndex
CREATE INDEX "incidents_emergency_type_last_call_at_idx" ON "incidents"("emergency_type", "last_call_at");

-- CreateIndex
CREATE INDEX "incidents_location_key_last_call_at_idx" ON "incidents"("location_key", "last_call_at");

-- CreateIndex
CREATE INDEX "incidents_last_call_at_id_idx" ON "incidents"("last_call_at" DESC, "id");

-- CreateIndex
CREATE INDEX "incidents_status_last_call_at_id_idx" ON "incidents"("status", "last_call_at" DESC, "id");

-- CreateIndex
CREATE INDEX "calls_incident_id_occurred_at_id_idx" ON "calls"("incident_id", "occurred_at", "id");

-- AddForeignKey
ALTER TABLE "calls" ADD CONSTRAINT "calls_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
