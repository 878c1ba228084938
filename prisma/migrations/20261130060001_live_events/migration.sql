-- Live events besides the tools (issue 38, lib/live-calls/events.ts): when the platform said the
-- call ended (Vapi's status-update `ended`; a later live event no longer puts it back on the line),
-- and when the agent first reported a location live (the intervals report's "location known").
ALTER TABLE "calls" ADD COLUMN "live_ended_at" TIMESTAMPTZ(3),
  ADD COLUMN "live_located_at" TIMESTAMPTZ(3);
