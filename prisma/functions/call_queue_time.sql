-- The time a call takes its place in the queue by, and ages from (docs/dashboard.md, "Times"): the
-- platform's time of the call (occurred_at, kept as sent) unless it is implausible: before 2000,
-- more than a day before Mayday received it, or more than 5 minutes after (a clock ahead); then the
-- time it was received (created_at). lib/calls/queue-time.ts states the same rule for the pages.
CREATE OR REPLACE FUNCTION "call_queue_time"(occurred TIMESTAMPTZ, received TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN occurred < TIMESTAMPTZ '2000-01-01 00:00:00+00' OR occurred < received - INTERVAL '1 day'
    OR occurred > received + INTERVAL '5 minutes' THEN received ELSE occurred END
$$;
