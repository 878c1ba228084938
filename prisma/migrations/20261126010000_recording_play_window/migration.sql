-- A person's playing of a call's recording is audited once per listening window (docs/security.md,
-- "Audit trail"): the row carries its window's start in `after`, and this index makes a second row
-- for the same person, recording and window impossible, on every instance at once (the writer's
-- INSERT ... ON CONFLICT DO NOTHING finds the key taken). Rows written before carry no window and
-- stay as they are. Prisma's schema cannot state an expression index and leaves this one alone.
CREATE UNIQUE INDEX "audit_events_recording_play_window_key" ON "audit_events" ("actor_id", "target_id", ("after" ->> 'window_start'))
  WHERE "action" = 'call.recording_played';
