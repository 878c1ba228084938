-- CreateIndex
CREATE INDEX "audit_events_target_kind_at_id_idx" ON "audit_events"("target_kind", "at" DESC, "id" DESC);
