-- The caller's name as a person taking the call wrote it (POST /api/calls, docs/calls.md, "A call a
-- person takes"); null for every other call (a voice agent's platform sends no name).
ALTER TABLE "calls" ADD COLUMN "caller_name" TEXT;
