-- A dispatcher corrects what the voice agent heard (docs/calls.md, "Corrections"): the agent's own
-- value of a corrected field is kept beside the corrected one (null while the field was never
-- corrected), every correction is a row of call_corrections (written only by lib/calls/write), and
-- an incident a dispatcher merged or split keeps its calls when one of them is corrected.
ALTER TABLE "calls" ADD COLUMN "original_emergency_type" TEXT,
  ADD COLUMN "original_severity" TEXT,
  ADD COLUMN "original_location" TEXT;

ALTER TABLE "incidents" ADD COLUMN "arranged_by_hand" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "call_corrections" (
    "id" SERIAL NOT NULL,
    "call_id" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "from_value" TEXT NOT NULL,
    "to_value" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changed_by" TEXT NOT NULL,
    "changed_by_name" TEXT,

    CONSTRAINT "call_corrections_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "call_corrections_call_id_changed_at_idx" ON "call_corrections"("call_id", "changed_at");

ALTER TABLE "call_corrections" ADD CONSTRAINT "call_corrections_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
