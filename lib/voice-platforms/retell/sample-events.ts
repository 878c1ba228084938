/** Retell's webhook events as Retell sends them, for the tests, the bench and the scripts. */

/**
 * A Retell webhook event in the documented shape (docs/webhook.md, "Retell"): `call_ended`
 * carries the call object without `call_analysis`, `call_analyzed` the same with it.
 */
export function retellCallEvent(
  event: "call_ended" | "call_analyzed" | "call_started",
  callId: string,
  options: { location?: string; endMs?: number; disconnectionReason?: string; recordingUrl?: string } = {},
) {
  const endMs = options.endMs ?? 1_767_225_600_000;
  const notConnected = options.disconnectionReason?.startsWith("dial_") ?? false;
  const call: Record<string, unknown> = {
    call_type: "phone_call",
    from_number: "(615) 555-0177",
    to_number: "+16155550911",
    direction: "inbound",
    call_id: callId,
    agent_id: "agent_retell_911",
    call_status: notConnected ? "not_connected" : "ended",
    metadata: {},
    retell_llm_dynamic_variables: {},
    start_timestamp: endMs - 97_000,
    end_timestamp: endMs,
    duration_ms: 97_000,
    disconnection_reason: options.disconnectionReason ?? "user_hangup",
    transcript: "Agent: 911, what is your emergency?\nUser: There is a fire on our street.\n",
    transcript_object: [
      { role: "agent", content: "911, what is your emergency?", words: [] },
      { role: "user", content: "There is a fire on our street.", words: [] },
    ],
    recording_url: options.recordingUrl ?? `https://dxc03zgurdly9.cloudfront.net/${callId}/recording.wav`,
    public_log_url: `https://dxc03zgurdly9.cloudfront.net/${callId}/public.log`,
  };
  if (event === "call_analyzed") {
    call.call_analysis = {
      call_summary: "Caller reported a house fire next door. Fire units dispatched.",
      in_voicemail: false,
      user_sentiment: "Negative",
      call_successful: true,
      custom_analysis_data: {
        emergency_type: "Structure Fire",
        location: options.location ?? "1200 Sunset Blvd, Pacific Palisades",
        severity: "Critical",
      },
    };
  }
  return { event, call };
}
