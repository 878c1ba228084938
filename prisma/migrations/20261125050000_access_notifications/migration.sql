-- Every instance keeps who a session cookie or key belongs to in memory (lib/access/access-cache.ts)
-- and forgets it when access changes anywhere: a person removed or given another role, a session
-- ended, a key revoked. The NOTIFY is sent at commit, to every instance's LISTEN connection.
CREATE FUNCTION notify_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mayday_access_changed', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER users_access_changed AFTER UPDATE OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER sessions_access_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
CREATE TRIGGER api_keys_access_changed AFTER UPDATE OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed();
