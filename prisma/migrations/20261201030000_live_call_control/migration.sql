-- Dispatcher to agent (issue 38, lib/live-calls/control.ts): the latest live control URL a
-- platform sent for a call (Vapi's call.monitor.controlUrl), and what became of each instruction.
CREATE TABLE "live_call_controls" (
    "call_id" TEXT NOT NULL,
    "control_url" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT "live_call_controls_pkey" PRIMARY KEY ("call_id")
);
ALTER TABLE "live_call_controls" ADD CONSTRAINT "live_call_controls_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- pushed | waiting | failed; null while the push is under way.
ALTER TABLE "live_instructions" ADD COLUMN "delivery" TEXT,
  ADD COLUMN "delivery_reason" TEXT;
