-- Vapi's presigned recording link (docs/webhook.md, "Recordings"): queued beside the link itself and
-- fetched when that one is refused with 401 or 403.
ALTER TABLE "recording_fetches" ADD COLUMN "fallback_url" TEXT;

-- Every platform's agent is the `agent` speaker (lib/webhook/payload.ts, transcriptTurns): the turns
-- stored under Vapi's `bot` and `assistant` (or `ai`) are renamed, in their order.
UPDATE "call_transcripts" t SET "turns" = (
  SELECT jsonb_agg(CASE WHEN e.turn->>'speaker' IN ('bot', 'assistant', 'ai')
                        THEN jsonb_set(e.turn, '{speaker}', '"agent"') ELSE e.turn END ORDER BY e.n)
  FROM jsonb_array_elements(t."turns") WITH ORDINALITY AS e(turn, n))
WHERE t."turns" @> '[{"speaker": "bot"}]' OR t."turns" @> '[{"speaker": "assistant"}]' OR t."turns" @> '[{"speaker": "ai"}]';
