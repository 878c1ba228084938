-- The change feed (docs/dashboard.md, "Change feed"). Every insert and update of a call takes the
-- next number of one sequence, stored on the row; readers ask for "calls whose change_number is
-- above my cursor". Sequences hand out numbers at write time but transactions commit in any
-- order, so numbers are taken under one transaction-level advisory lock, held until commit:
-- a writer can only take a number once every smaller number's transaction has ended, hence the
-- committed numbers a reader sees always form a prefix and a cursor never skips a late commit.
-- AlterTable (BIGSERIAL: the sequence calls_change_number_seq, as Prisma models it)
ALTER TABLE "calls" ADD COLUMN     "change_number" BIGSERIAL NOT NULL,
ADD COLUMN     "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Calls stored before the feed existed last changed when they were last updated.
UPDATE "calls" SET "changed_at" = "updated_at";

-- CreateIndex
CREATE INDEX "calls_status_latitude_longitude_severity_id_idx" ON "calls"("status", "latitude", "longitude", "severity", "id");

-- CreateIndex
CREATE INDEX "calls_status_changed_at_idx" ON "calls"("status", "changed_at");

-- CreateIndex
CREATE UNIQUE INDEX "calls_change_number_key" ON "calls"("change_number");

-- The feed lock is taken by every statement that writes calls before it touches a row (a
-- statement trigger), so every writer takes the feed lock first, then row locks: one order, no
-- deadlock between a writer waiting for a row and the row's holder waiting for the feed lock.
-- The lock key is the feed's own (lib/live/feed.ts CHANGE_FEED_LOCK).
CREATE FUNCTION "call_change_lock"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7243001001);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "calls_change_lock" BEFORE INSERT OR UPDATE ON "calls"
  FOR EACH STATEMENT EXECUTE FUNCTION "call_change_lock"();

-- Numbers every written row, under the lock its statement took.
CREATE FUNCTION "call_change_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."change_number" := nextval('calls_change_number_seq');
  NEW."changed_at" := now();
  RETURN NEW;
END;
$$;

CREATE TRIGGER "calls_change_stamp" BEFORE INSERT OR UPDATE ON "calls"
  FOR EACH ROW EXECUTE FUNCTION "call_change_stamp"();

-- Wakes every listening app instance when the transaction commits (NOTIFY is transactional and
-- folds duplicates). The notification carries nothing: woken readers read the feed from their
-- own cursor, so a notification that is lost or merged loses no change.
CREATE FUNCTION "calls_changed_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('mayday_calls_changed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "calls_changed_notify" AFTER INSERT OR UPDATE OR DELETE ON "calls"
  FOR EACH STATEMENT EXECUTE FUNCTION "calls_changed_notify"();
