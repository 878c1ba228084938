-- The trigram indexes (location, summary, transcript text) take new entries into a pending list
-- that the write crossing its limit merges into the index, in its own statement. At the default
-- 4 MB a simulation of 1,000 calls crossed it every other time (a 1,000-call insert: median 200 ms,
-- runs to 310 ms); at 16 MB the merges are a quarter as many and each sorts more entries at once
-- (median 165 ms). A search reads the pending list whole: at most 16 MB, about 18 ms more at
-- its fullest (docs/performance.md, issue 25). Prisma's schema cannot state an index's storage
-- parameters and leaves them alone.
ALTER INDEX "calls_location_trgm_idx" SET (gin_pending_list_limit = 16384);
ALTER INDEX "calls_summary_trgm_idx" SET (gin_pending_list_limit = 16384);
ALTER INDEX "call_transcripts_text_trgm_idx" SET (gin_pending_list_limit = 16384);
