/**
 * Realistic post-call events, for the test-call script, the bench and the tests: one in the documented
 * form (docs/interface.md) and one exactly as ElevenLabs sends it.
 */

/** A call event in the documented form (speaker/text/timestamp, boolean call_successful). */
export function specCallEvent(conversationId: string, options: { location?: string; eventTimestamp?: number } = {}) {
  const eventTimestamp = options.eventTimestamp ?? 1_767_225_600; // 2026-01-01T00:00:00Z
  return {
    type: "post_call_transcription",
    event_timestamp: eventTimestamp,
    data: {
      conversation_id: conversationId,
      agent_id: "agent_911_dispatch",
      status: "completed",
      transcript: [
        { speaker: "agent", text: "911, what is your emergency?", timestamp: eventTimestamp - 95 },
        { speaker: "caller", text: "There is a fire on our street, the house next door is burning.", timestamp: eventTimestamp - 88 },
        { speaker: "agent", text: "Units are on their way. Are you safe?", timestamp: eventTimestamp - 20 },
      ],
      analysis: {
        transcript_summary: "Caller reported a house fire next door. Fire units dispatched.",
        call_successful: true,
        data_collection_results: {
          emergency_type: { value: "Structure Fire", rationale: "Caller said the house is burning." },
          location: { value: options.location ?? "1200 Sunset Blvd, Pacific Palisades", rationale: "Caller gave the address." },
          severity: { value: "Critical", rationale: "Occupied structure on fire." },
        },
      },
      metadata: { call_duration_secs: 97, language: "en-US" },
    },
  };
}

/** A post-call webhook exactly as ElevenLabs sends it (role/message/time_in_call_secs, "success", "done"). */
export function elevenLabsCallEvent(conversationId: string, options: { location?: string; eventTimestamp?: number } = {}) {
  const eventTimestamp = options.eventTimestamp ?? 1_767_229_200;
  return {
    type: "post_call_transcription",
    event_timestamp: eventTimestamp,
    data: {
      agent_id: "agent_01jz8x3y4v5w6x7y8z9a0b1c2d",
      conversation_id: conversationId,
      status: "done",
      user_id: null,
      branch_id: null,
      transcript: [
        {
          role: "agent",
          agent_metadata: { agent_id: "agent_01jz8x3y4v5w6x7y8z9a0b1c2d", workflow_node_id: null },
          message: "911, what is the address of your emergency?",
          multivoice_message: null,
          tool_calls: [],
          tool_results: [],
          feedback: null,
          llm_override: null,
          time_in_call_secs: 0,
          conversation_turn_metrics: { metrics: { convai_llm_service_ttfb: { elapsed_time: 0.31 } } },
          rag_retrieval_info: null,
          llm_usage: null,
          interrupted: false,
          original_message: null,
          source_medium: null,
        },
        {
          role: "user",
          agent_metadata: null,
          message: "The power lines came down on Music Row, there are sparks everywhere.",
          tool_calls: [],
          tool_results: [],
          feedback: null,
          time_in_call_secs: 6,
          conversation_turn_metrics: null,
          interrupted: false,
          source_medium: "audio",
        },
        {
          role: "agent",
          message: "Stay away from the lines. Crews are on the way.",
          tool_calls: [],
          tool_results: [],
          feedback: null,
          time_in_call_secs: 41,
          conversation_turn_metrics: null,
        },
      ],
      metadata: {
        start_time_unix_secs: eventTimestamp - 100,
        accepted_time_unix_secs: eventTimestamp - 99,
        call_duration_secs: 48,
        cost: 412,
        deletion_settings: { deletion_time_unix_secs: null, deleted_logs_at_time_unix_secs: null },
        feedback: { overall_score: null, likes: 0, dislikes: 0 },
        authorization_method: "signed_url",
        charging: { dev_discount: false, tier: "pro", llm_price: 0.0011 },
        phone_call: {
          direction: "inbound",
          phone_number_id: "phnum_01jz",
          agent_number: "+16155550100",
          external_number: "+16155550123",
          type: "twilio",
          stream_sid: "MZ18ad3ab5a668481ce02b83e7395059f0",
          call_sid: "CA1234567890abcdef",
        },
        termination_reason: "Call ended by remote party",
        error: null,
        main_language: "en",
        rag_usage: null,
        text_only: false,
      },
      analysis: {
        evaluation_criteria_results: {
          collected_address: { criteria_id: "collected_address", result: "success", rationale: "Address given." },
        },
        data_collection_results: {
          emergency_type: {
            data_collection_id: "emergency_type",
            value: "power lines down",
            json_schema: { type: "string", description: "Kind of emergency" },
            rationale: "Caller reports downed power lines.",
          },
          location: {
            data_collection_id: "location",
            value: options.location ?? "Music Row, Nashville",
            json_schema: { type: "string", description: "Where the emergency is" },
            rationale: "Caller named Music Row.",
          },
          severity: {
            data_collection_id: "severity",
            value: "High",
            json_schema: { type: "string", description: "critical, high or moderate" },
            rationale: "Live wires near people.",
          },
        },
        call_successful: "success",
        transcript_summary: "Caller reported downed power lines sparking on Music Row. Crews dispatched.",
        call_summary_title: "Downed power lines",
      },
      conversation_initiation_client_data: {
        conversation_config_override: { agent: { prompt: null, first_message: null, language: "en" } },
        custom_llm_extra_body: {},
        dynamic_variables: { system__caller_id: "+16155550123", system__called_number: "+16155550100" },
      },
    },
  };
}

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
