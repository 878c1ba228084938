-- The full transcript (issue 28): each call's turns as the payload held them, and their text, which
-- GET /api/calls?q= searches with summary and location through trigram indexes (docs/calls.md).
-- CreateTable
CREATE TABLE "call_transcripts" (
    "call_id" TEXT NOT NULL,
    "turns" JSONB NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "call_transcripts_pkey" PRIMARY KEY ("call_id")
);

-- CreateIndex
CREATE INDEX "call_transcripts_text_trgm_idx" ON "call_transcripts" USING GIN ("text" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "calls_summary_trgm_idx" ON "calls" USING GIN ("summary" gin_trgm_ops);

-- AddForeignKey
ALTER TABLE "call_transcripts" ADD CONSTRAINT "call_transcripts_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
