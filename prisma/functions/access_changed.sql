-- Moves access_version at any change of users, sessions or API keys, in the changing transaction:
-- every instance then stops trusting what it remembered of who a credential is, and, woken at
-- commit by the notification, has its open streams check their credential again (docs/security.md).
CREATE OR REPLACE FUNCTION access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE access_version SET n = n + 1;
  PERFORM pg_notify('mayday_access_changed', '');
  RETURN NULL;
END
$$;
