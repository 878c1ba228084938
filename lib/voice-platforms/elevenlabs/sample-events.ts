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
