-- Precision carried with every located call (docs/geocoding.md): who located the point (the former
-- geocode_source, its values renamed to lib/geocoding's LOCATION_SOURCES), how exact it is and its
-- uncertainty radius; and each incident's best precision, which grouping reads.
ALTER TABLE "calls" RENAME COLUMN "geocode_source" TO "location_source";
ALTER TABLE "calls" ADD COLUMN "location_precision" TEXT,
ADD COLUMN "location_uncertainty_m" DOUBLE PRECISION;
ALTER TABLE "incidents" ADD COLUMN "location_precision" TEXT;

-- Existing rows get what can be derived: platform coordinates are points (address_point, 10 m) and
-- the generator's are scenario-area points (locality, 3 km); a geocoder's precision was not kept, so
-- it stays null (coarse). A renaming of stored values, not a change of any call: the change feed's
-- and incidents' triggers stay out of it.
ALTER TABLE "calls" DISABLE TRIGGER USER;
UPDATE "calls" SET
  "location_source" = CASE "location_source" WHEN 'reported' THEN 'platform' WHEN 'simulated' THEN 'generator'
    WHEN 'hosted' THEN 'nominatim' ELSE "location_source" END,
  "location_precision" = CASE "location_source" WHEN 'reported' THEN 'address_point' WHEN 'simulated' THEN 'locality' END,
  "location_uncertainty_m" = CASE "location_source" WHEN 'reported' THEN 10 WHEN 'simulated' THEN 3000 END
WHERE "location_source" IN ('reported', 'simulated', 'hosted');
ALTER TABLE "calls" ENABLE TRIGGER USER;

UPDATE "incidents" i SET "location_precision" = 'address_point'
WHERE EXISTS (SELECT 1 FROM "calls" c WHERE c."incident_id" = i."id" AND c."location_precision" = 'address_point');
UPDATE "incidents" i SET "location_precision" = 'locality'
WHERE i."location_precision" IS NULL
  AND EXISTS (SELECT 1 FROM "calls" c WHERE c."incident_id" = i."id" AND c."location_precision" = 'locality');

-- incident_for_call takes the call's precision (prisma/functions/incident_for_call.sql).
DROP FUNCTION "incident_for_call"(TEXT, TEXT, TIMESTAMPTZ, DOUBLE PRECISION, DOUBLE PRECISION, TEXT, BOOLEAN, TEXT,
  DOUBLE PRECISION, DOUBLE PRECISION);
