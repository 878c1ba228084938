-- The feed lock is taken by every statement that writes calls before it touches a row (a
-- statement trigger), so every writer takes the feed lock first, then row locks: one order, no
-- deadlock between a writer waiting for a row and the row's holder waiting for the feed lock.
-- The lock key is the feed's own (CHANGE_FEED_LOCK, lib/feed/lock.ts).
CREATE OR REPLACE FUNCTION "call_change_lock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7243001001);
  RETURN NULL;
END;
$$;
