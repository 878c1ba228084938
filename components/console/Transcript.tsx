"use client";

import type { CallDetail } from "../shared/api";
import { humanize } from "../shared/call-status";

/** m:ss of a time in call (seconds); empty when the turn had no time. */
export function formatTimeInCall(seconds: number | null): string {
  if (seconds === null) return "";
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/**
 * The conversation turn by turn (speaker, time in call, text). A plain list in a scrolled box:
 * the browser skips layout and paint of the turns out of view (`content-visibility: auto`), so
 * a conversation of hundreds of turns opens as fast as a short one (bench/transcript-render.ts).
 */
export function Transcript({ turns }: { turns: CallDetail["transcript"] }) {
  if (turns.length === 0) return <p className="muted">No transcript.</p>;
  return (
    <ol className="transcript" aria-label={`Transcript, ${turns.length} turns`} tabIndex={0} data-testid="transcript">
      {turns.map((turn, index) => (
        <li key={index} className={`turn turn-${turn.speaker === "agent" ? "agent" : "caller"}`}>
          <span className="turn-speaker">{humanize(turn.speaker)}</span>{" "}
          <span className="turn-time">{formatTimeInCall(turn.time_in_call_secs)}</span>
          <p className="turn-text">{turn.text}</p>
        </li>
      ))}
    </ol>
  );
}
