-- The voice-agent platform a call came from (issue 26): ElevenLabs (every call stored before),
-- Vapi or Retell. Filterable in GET /api/calls (`platform=`) through its own index, as caller_phone is.
ALTER TABLE "calls" ADD COLUMN "platform" TEXT NOT NULL DEFAULT 'elevenlabs';
-- The platform's link to the call's audio (Vapi's artifact recording, Retell's recording_url), as sent.
ALTER TABLE "calls" ADD COLUMN "recording_url" TEXT;
CREATE INDEX "calls_platform_occurred_at_id_idx" ON "calls"("platform", "occurred_at" DESC, "id");
-- A Retell call stored from its call_ended event, whose analysis (call_analyzed) is still to come:
-- it is placed in an incident only once the analysis says what and where (lib/calls/write/received.ts).
ALTER TABLE "calls" ADD COLUMN "awaiting_analysis" BOOLEAN NOT NULL DEFAULT false;
