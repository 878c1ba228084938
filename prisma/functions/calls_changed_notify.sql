-- Wakes every listening app instance when the transaction commits (NOTIFY is transactional and
-- folds duplicates). The notification carries nothing: woken readers read the feed from their
-- own cursor, so a notification that is lost or merged loses no change.
CREATE OR REPLACE FUNCTION "calls_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mayday_calls_changed', '');
  RETURN NULL;
END;
$$;
