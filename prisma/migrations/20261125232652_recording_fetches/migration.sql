-- Vapi's and Retell's recording links, copied into object storage in the background
-- (lib/intake/recording-queue.ts, docs/webhook.md "Recordings"): one row per call's link, queued
-- before the call is stored, `pending` until archived (linked in call_recordings) or given up.
-- CreateTable
CREATE TABLE "recording_fetches" (
    "conversation_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "recording_fetches_pkey" PRIMARY KEY ("conversation_id")
);

-- The archiver's queue: only pending fetches are in it, so a sweep costs the same however many
-- calls are stored (Prisma's schema cannot state a partial index and leaves this one alone).
CREATE INDEX "recording_fetches_due_idx" ON "recording_fetches" ("next_attempt_at") WHERE "state" = 'pending';

-- The links of calls stored before: fetched once the archiver runs (an expired one is given up).
INSERT INTO "recording_fetches" ("conversation_id", "url", "next_attempt_at")
SELECT c."conversation_id", c."recording_url", CURRENT_TIMESTAMP
FROM "calls" c
WHERE c."recording_url" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "call_recordings" r WHERE r."conversation_id" = c."conversation_id");
