-- The best of some precisions (lib/geocoding/types.ts PRECISIONS, best first; nulls ignored): an
-- incident's precision from its calls'. tests/unit/sql-functions.test.ts holds the list equal to PRECISIONS.
CREATE OR REPLACE FUNCTION "best_location_precision"(precisions TEXT[]) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
  SELECT r.p FROM unnest(ARRAY['address_point', 'interpolated', 'intersection', 'street', 'postal_code', 'locality', 'region'])
    WITH ORDINALITY AS r(p, n)
  WHERE r.p = ANY(precisions) ORDER BY r.n LIMIT 1
$$;
