-- Every instance keeps who a session cookie or key belongs to in memory (lib/access/access-cache.ts),
-- trusted while this number has not moved. A statement changing who may do what (a person removed
-- or given another role, a session ended, a key revoked) moves it in its own transaction, so the
-- new number is visible exactly when the change is, on every instance.
CREATE TABLE access_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  n bigint NOT NULL
);
INSERT INTO access_version (id, n) VALUES (true, 0);

CREATE FUNCTION access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE access_version SET n = n + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER users_access_changed AFTER UPDATE OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
CREATE TRIGGER sessions_access_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
CREATE TRIGGER api_keys_access_changed AFTER UPDATE OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
