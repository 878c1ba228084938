-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "calls" (
    "id" TEXT NOT NULL,
    "conversation_id" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "agent_id" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "call_successful" BOOLEAN NOT NULL,
    "duration_secs" INTEGER NOT NULL,
    "transcript_length" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "emergency_type" TEXT NOT NULL,
    "location" TEXT NOT NULL,
    "latitude" DOUBLE PRECISION,
    "longitude" DOUBLE PRECISION,
    "geocode_source" TEXT,
    "severity" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "simulation" BOOLEAN NOT NULL,
    "scenario" TEXT,
    "scenario_name" TEXT,
    "table_name" TEXT NOT NULL,
    "call_id" TEXT,
    "area" TEXT,
    "caller_phone" TEXT,
    "description" TEXT,
    "simulated_record" JSONB,
    "payload_key" TEXT,

    CONSTRAINT "calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "call_status_changes" (
    "id" SERIAL NOT NULL,
    "call_id" TEXT NOT NULL,
    "from_status" TEXT,
    "status" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changed_by" TEXT NOT NULL,

    CONSTRAINT "call_status_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "calls_conversation_id_key" ON "calls"("conversation_id");

-- CreateIndex
CREATE UNIQUE INDEX "calls_call_id_key" ON "calls"("call_id");

-- CreateIndex
CREATE INDEX "calls_occurred_at_id_idx" ON "calls"("occurred_at" DESC, "id");

-- CreateIndex
CREATE INDEX "calls_status_occurred_at_id_idx" ON "calls"("status", "occurred_at" DESC, "id");

-- CreateIndex
CREATE INDEX "calls_severity_status_occurred_at_id_idx" ON "calls"("severity", "status", "occurred_at" DESC, "id");

-- CreateIndex
CREATE INDEX "calls_emergency_type_occurred_at_id_idx" ON "calls"("emergency_type", "occurred_at" DESC, "id");

-- CreateIndex
CREATE INDEX "calls_simulation_occurred_at_id_idx" ON "calls"("simulation", "occurred_at" DESC, "id");

-- CreateIndex
CREATE INDEX "calls_table_name_occurred_at_id_idx" ON "calls"("table_name", "occurred_at" DESC, "id");

-- CreateIndex
CREATE INDEX "calls_location_trgm_idx" ON "calls" USING GIN ("location" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "call_status_changes_call_id_changed_at_idx" ON "call_status_changes"("call_id", "changed_at");

-- AddForeignKey
ALTER TABLE "call_status_changes" ADD CONSTRAINT "call_status_changes_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
