-- Street level or better (lib/geocoding/types.ts STREET_LEVEL): close enough to group on distance
-- alone (docs/incidents.md, "Grouping"). Null, an unknown precision, is coarse.
-- tests/unit/sql-functions.test.ts holds the list equal to STREET_LEVEL.
CREATE OR REPLACE FUNCTION "street_level"(p TEXT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(p = ANY(ARRAY['address_point', 'interpolated', 'intersection', 'street']), false)
$$;
