/** Vapi's server messages as Vapi sends them, for the tests, the bench and the scripts. */

/**
 * A Vapi `end-of-call-report` server message in the documented shape (docs/webhook.md, "Vapi"):
 * the call with its customer's number, times, ended reason, the analysis' summary and structured
 * data (the names Mayday's ElevenLabs agent collects), the artifact's messages and recording.
 */
export function vapiEndOfCallReport(
  callId: string,
  options: { location?: string; endedAt?: number; endedReason?: string; recordingUrl?: string } = {},
) {
  const endedMs = options.endedAt ?? 1_767_225_600_000; // 2026-01-01T00:00:00Z
  const startedMs = endedMs - 97_000;
  const recordingUrl = options.recordingUrl ?? `https://storage.vapi.ai/${callId}-mono.wav`;
  return {
    message: {
      timestamp: endedMs + 1_500,
      type: "end-of-call-report",
      endedReason: options.endedReason ?? "customer-ended-call",
      call: {
        id: callId,
        orgId: "org_5d0e0a4c",
        type: "inboundPhoneCall",
        assistantId: "asst_911_overflow",
        customer: { number: "+16155550142" },
        status: "ended",
      },
      customer: { number: "+16155550142" },
      startedAt: new Date(startedMs).toISOString(),
      endedAt: new Date(endedMs).toISOString(),
      durationSeconds: 97.2,
      cost: 0.11,
      analysis: {
        summary: "Caller reported a house fire next door. Fire units dispatched.",
        structuredData: {
          emergency_type: "structure fire",
          location: options.location ?? "1200 Sunset Blvd, Pacific Palisades",
          severity: "critical",
        },
        successEvaluation: "true",
      },
      artifact: {
        transcript: "AI: 911, what is your emergency?\nUser: There is a fire on our street.\n",
        messages: [
          { role: "system", message: "You are a 911 overflow agent.", time: startedMs, secondsFromStart: 0 },
          { role: "bot", message: "911, what is your emergency?", time: startedMs + 1_000, endTime: startedMs + 2_500, secondsFromStart: 1 },
          { role: "user", message: "There is a fire on our street.", time: startedMs + 4_000, endTime: startedMs + 7_000, secondsFromStart: 4 },
        ],
        recordingUrl,
        recording: { mono: { combinedUrl: recordingUrl } },
      },
    },
  };
}
