-- Live calls (issue 38, lib/live-calls): a call the voice agent reports while the caller is still
-- on the line, completed by the platform's post-call event.
ALTER TABLE "calls" ADD COLUMN "on_line" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "live_at" TIMESTAMPTZ(3),
  ADD COLUMN "live_seen_at" TIMESTAMPTZ(3),
  ADD COLUMN "post_call_at" TIMESTAMPTZ(3);

-- The sweep of live calls whose post-call event never came: the calls on the line only.
CREATE INDEX "calls_on_line_idx" ON "calls" ("live_seen_at") WHERE "on_line";

CREATE TABLE "live_instructions" (
    "id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "author_ref" TEXT NOT NULL,
    "author_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT "live_instructions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "live_instructions_call_id_created_at_id_idx" ON "live_instructions"("call_id", "created_at" DESC, "id" DESC);
ALTER TABLE "live_instructions" ADD CONSTRAINT "live_instructions_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
