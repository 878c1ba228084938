-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "failure_reason" TEXT;

-- CreateTable
CREATE TABLE "call_recordings" (
    "conversation_id" TEXT NOT NULL,
    "object_key" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "call_recordings_pkey" PRIMARY KEY ("conversation_id")
);

-- CreateIndex
CREATE INDEX "calls_caller_phone_occurred_at_id_idx" ON "calls"("caller_phone", "occurred_at" DESC, "id");
