-- AlterTable
ALTER TABLE "calls" ADD COLUMN     "exercise_id" TEXT;

-- CreateTable
CREATE TABLE "exercises" (
    "id" TEXT NOT NULL,
    "scenario" TEXT NOT NULL,
    "duration_minutes" INTEGER NOT NULL,
    "planned_calls" INTEGER NOT NULL,
    "shape" TEXT NOT NULL,
    "speed" DOUBLE PRECISION NOT NULL,
    "abandoned_share" DOUBLE PRECISION NOT NULL,
    "seed" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "elapsed_ms" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "running_since" TIMESTAMPTZ(3),

    CONSTRAINT "exercises_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "exercise_calls" (
    "exercise_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "due_offset_ms" INTEGER NOT NULL,
    "abandoned" BOOLEAN NOT NULL,
    "record" JSONB NOT NULL,
    "released_at" TIMESTAMPTZ(3),
    "released_offset_ms" INTEGER,
    "call_id" TEXT,

    CONSTRAINT "exercise_calls_pkey" PRIMARY KEY ("exercise_id","seq")
);

-- CreateIndex
CREATE INDEX "exercises_state_idx" ON "exercises"("state");

-- CreateIndex
CREATE INDEX "exercise_calls_exercise_id_released_at_due_offset_ms_idx" ON "exercise_calls"("exercise_id", "released_at", "due_offset_ms");

-- CreateIndex
CREATE INDEX "calls_exercise_id_occurred_at_idx" ON "calls"("exercise_id", "occurred_at");

-- AddForeignKey
ALTER TABLE "calls" ADD CONSTRAINT "calls_exercise_id_fkey" FOREIGN KEY ("exercise_id") REFERENCES "exercises"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "exercise_calls" ADD CONSTRAINT "exercise_calls_exercise_id_fkey" FOREIGN KEY ("exercise_id") REFERENCES "exercises"("id") ON DELETE CASCADE ON UPDATE CASCADE;
