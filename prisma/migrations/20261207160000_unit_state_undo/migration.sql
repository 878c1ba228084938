-- A unit's state move undone (lib/units/undo-state.ts, docs/units.md "Undo"): the undo's row names
-- the move it reverted; a move that moved its incident (a send that dispatched it, a last unit
-- clearing that resolved it) names that incident status move, so its undo reverts that too.
ALTER TABLE "unit_state_changes" ADD COLUMN "undoes" BIGINT, ADD COLUMN "incident_change_id" TEXT;
