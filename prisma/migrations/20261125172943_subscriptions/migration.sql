-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "announced_change" BIGINT,
ADD COLUMN     "status_change" BIGINT;

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "event_types" TEXT[],
    "filter_scenario" TEXT,
    "filter_simulation" BOOLEAN,
    "filter_severities" TEXT[],
    "body_format" TEXT NOT NULL DEFAULT 'mayday',
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_until" TIMESTAMPTZ(3),
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "health" TEXT NOT NULL DEFAULT 'ok',
    "cursor" BIGINT NOT NULL,
    "cursor_sent" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_delivery_at" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_deliveries" (
    "id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "change" BIGINT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_deliveries_subscription_id_at_id_idx" ON "subscription_deliveries"("subscription_id", "at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "subscription_deliveries_at_idx" ON "subscription_deliveries"("at");

-- CreateIndex
CREATE INDEX "calls_announced_change_idx" ON "calls"("announced_change");

-- CreateIndex
CREATE INDEX "calls_status_change_idx" ON "calls"("status_change");

-- AddForeignKey
ALTER TABLE "subscription_deliveries" ADD CONSTRAINT "subscription_deliveries_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
