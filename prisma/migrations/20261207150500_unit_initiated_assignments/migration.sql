-- An assignment of a unit that reported the incident itself (a crew that came upon it: POST
-- /api/calls with `unit_id`, docs/calls.md, "A call a person takes"): on scene from its first moment,
-- so the units' report counts its turnout as zero and leaves its travel out (docs/reports.md).
ALTER TABLE "unit_assignments" ADD COLUMN "unit_initiated" BOOLEAN NOT NULL DEFAULT false;
