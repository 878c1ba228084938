-- The normalised location text that groups calls without coordinates (lib/incidents/grouping.ts
-- uses this same function): lower case, runs of anything but letters and digits as one space.
CREATE OR REPLACE FUNCTION "incident_location_key"(location TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT btrim(regexp_replace(lower(location), '[^a-z0-9]+', ' ', 'g'))
$$;
