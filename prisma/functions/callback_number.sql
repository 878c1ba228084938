-- A callback number grouping trusts (docs/incidents.md, "Grouping"): a full number as the intake
-- normalises it (lib/calls/sanitise.ts normalisePhone: "+" and 8 to 15 digits), never a withheld
-- or partial one ("anonymous", "unknown", an extension). Null is none.
CREATE OR REPLACE FUNCTION "callback_number"(phone TEXT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(phone ~ '^\+[0-9]{8,15}$', false)
$$;
