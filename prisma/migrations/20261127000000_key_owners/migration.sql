-- A key belongs to a person, its owner: whoever made it, or for a service key the person an
-- administrator named. Removing the owner revokes their keys; lowering them revokes the keys whose
-- scopes exceed the new role (lib/access/keys.ts). A key made with the environment's API_KEY and
-- naming nobody has no owner. last_used_at is written at most once a minute per key.
ALTER TABLE "api_keys"
  ADD COLUMN "owner_id" TEXT,
  ADD COLUMN "owner_name" TEXT,
  ADD COLUMN "service" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "last_used_at" TIMESTAMPTZ(3);

CREATE INDEX "api_keys_owner_id_idx" ON "api_keys"("owner_id");

-- Keys made before owners: the person who made them (their key.created row) owns them.
UPDATE "api_keys" AS k SET "owner_id" = a."actor_id", "owner_name" = a."actor_name"
FROM "audit_events" AS a
WHERE a."action" = 'key.created' AND a."target_kind" = 'key' AND a."target_id" = k."id" AND a."actor_kind" = 'user';

-- Those whose maker is gone, or whose scopes exceed the maker's role now, are revoked, audited.
WITH "revoked" AS (
  UPDATE "api_keys" AS k SET "revoked_at" = now()
  WHERE k."revoked_at" IS NULL AND k."owner_id" IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM "users" AS u WHERE u."id" = k."owner_id" AND k."scopes" <@ (CASE u."role"
      WHEN 'admin' THEN ARRAY['read', 'dispatch', 'train', 'admin']
      WHEN 'dispatcher' THEN ARRAY['read', 'dispatch']
      WHEN 'trainer' THEN ARRAY['read', 'train']
      ELSE ARRAY['read'] END))
  RETURNING k."id", k."name", k."scopes", k."owner_id", EXISTS (SELECT 1 FROM "users" AS u WHERE u."id" = k."owner_id") AS "owner_exists"
)
INSERT INTO "audit_events" ("id", "actor_kind", "actor_id", "actor_name", "action", "target_kind", "target_id", "before", "after")
SELECT gen_random_uuid()::text, 'anonymous', NULL, 'upgrade', 'key.revoked', 'key', r."id",
  jsonb_build_object('name', r."name", 'scopes', r."scopes"),
  jsonb_build_object('reason', CASE WHEN r."owner_exists" THEN 'owner_role_changed' ELSE 'owner_removed' END, 'owner_id', r."owner_id")
FROM "revoked" AS r;

-- A last use is not a change of access: only these columns move access_version.
DROP TRIGGER "api_keys_access_changed" ON "api_keys";
CREATE TRIGGER "api_keys_access_changed" AFTER UPDATE OF "revoked_at", "scopes", "expires_at", "hash", "owner_id" OR DELETE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION access_changed();
