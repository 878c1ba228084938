import { z } from "zod";
import { missingFields } from "../fields";

/**
 * The post-call event in its documented form (docs/interface.md), and as the real platform (ElevenLabs) sends it:
 * transcript items as `speaker/text/timestamp` or `role/message/time_in_call_secs`,
 * `call_successful` as a boolean or `success/failure/unknown`, extra fields anywhere (ignored
 * here, kept in the archived payload).
 */
export const CALL_EVENT_TYPE = "post_call_transcription";
export const AUDIO_EVENT_TYPE = "post_call_audio";
export const FAILURE_EVENT_TYPE = "call_initiation_failure";

const unixSeconds = z.number().int().min(0).max(253_402_300_799);
// Optional numbers the record can do without: a wrong type is no value (docs/webhook.md).
const optionalNumber = z.number().nullish().catch(null);
const optionalText = z.string().nullish().catch(null);

// Used in object-store keys and URLs: no slashes, no dot-only names.
const conversationId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/);

const transcriptItem = z.object({
  speaker: optionalText,
  text: optionalText,
  timestamp: optionalNumber,
  role: optionalText,
  message: optionalText,
  time_in_call_secs: optionalNumber,
});

export const callEventSchema = z.object({
  type: z.literal(CALL_EVENT_TYPE),
  event_timestamp: unixSeconds,
  data: z.object({
    conversation_id: conversationId,
    agent_id: z.string().min(1),
    status: z.string(),
    transcript: z.array(transcriptItem),
    analysis: z.object({
      transcript_summary: z.string(),
      call_successful: z.union([z.boolean(), z.enum(["success", "failure", "unknown"])]),
      data_collection_results: z.record(z.string(), z.unknown()),
    }),
    metadata: z
      .object({
        call_duration_secs: optionalNumber,
        start_time_unix_secs: optionalNumber,
        phone_call: z
          .object({ external_number: optionalText })
          .nullish()
          .catch(null)
          .meta({ description: "Phone calls only; `external_number` is the caller" }),
      })
      .nullish(),
    conversation_initiation_client_data: z
      .object({
        dynamic_variables: z.object({ system__caller_id: optionalText }).nullish().catch(null),
      })
      .nullish()
      .catch(null),
  }),
});

/** The recording of a conversation: the whole call as base64 MP3. */
export const audioEventSchema = z.object({
  type: z.literal(AUDIO_EVENT_TYPE),
  event_timestamp: unixSeconds,
  data: z.object({
    conversation_id: conversationId,
    agent_id: optionalText,
    full_audio: z.string().meta({ description: "The whole call, base64-encoded MP3" }),
  }),
});

/** An outbound call that never connected. */
export const failureEventSchema = z.object({
  type: z.literal(FAILURE_EVENT_TYPE),
  event_timestamp: unixSeconds,
  data: z.object({
    conversation_id: conversationId,
    agent_id: optionalText,
    failure_reason: optionalText.meta({ description: "busy, no-answer or unknown" }),
    metadata: z
      .object({
        type: optionalText.meta({ description: "twilio or sip" }),
        body: z.record(z.string(), z.unknown()).nullish().catch(null).meta({
          description: "The telephony provider's own fields",
        }),
      })
      .nullish()
      .catch(null),
  }),
});

export type AudioEvent = z.infer<typeof audioEventSchema>;
export type FailureEvent = z.infer<typeof failureEventSchema>;

/**
 * The call event as the intake parses it: transcript items are only counted and timed, so they
 * are not validated one by one (a 5 MB body holds 100,000 turns; zod took 100-400 ms for them).
 */
const callEventIntakeSchema = callEventSchema.extend({
  data: callEventSchema.shape.data.extend({ transcript: z.array(z.unknown()) }),
});

export type CallEvent = z.infer<typeof callEventIntakeSchema>;


/** Any other event type: archived as received and acknowledged. */
export const otherEventSchema = z
  .object({
    type: z.string().min(1),
    event_timestamp: unixSeconds.optional(),
    data: z.object({ conversation_id: conversationId.optional() }).optional(),
  })
  .meta({ description: "An event type this service does not know yet" });

/** Every form the webhook takes, as documented (lib/intake reads and validates the raw body). */
export const webhookEventSchema = z
  .union([callEventSchema, audioEventSchema, failureEventSchema, otherEventSchema])
  .meta({ description: "One of the platform's post-call events; any other `type` is archived and acknowledged" });

const envelopeSchema = z.object({
  type: z.string().min(1),
  event_timestamp: unixSeconds.optional().catch(undefined),
  data: z.object({ conversation_id: conversationId.optional().catch(undefined) }).optional().catch(undefined),
});


function fieldPaths(error: z.ZodError): string[] {
  return error.issues.map((issue) => issue.path.map(String).join(".") || "body");
}

export type ParsedEvent =
  | { kind: "call"; event: CallEvent }
  | { kind: "audio"; event: AudioEvent }
  | { kind: "failure"; event: FailureEvent }
  | { kind: "other"; type: string; eventTimestamp?: number; conversationId?: string };

const knownEvents = {
  [CALL_EVENT_TYPE]: { kind: "call", schema: callEventIntakeSchema },
  [AUDIO_EVENT_TYPE]: { kind: "audio", schema: audioEventSchema },
  [FAILURE_EVENT_TYPE]: { kind: "failure", schema: failureEventSchema },
} as const;

const isKnownType = (type: string): type is keyof typeof knownEvents => Object.hasOwn(knownEvents, type);

/** Sorts a parsed JSON body into one of the known event types, or another one; 400 MISSING_FIELDS otherwise. */
export function parseEvent(body: unknown): ParsedEvent {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw missingFields(["type", "event_timestamp", "data"]);
  }
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw missingFields(fieldPaths(envelope.error));
  const { type } = envelope.data;
  if (!isKnownType(type)) {
    return {
      kind: "other",
      type,
      eventTimestamp: envelope.data.event_timestamp,
      conversationId: envelope.data.data?.conversation_id,
    };
  }
  const { kind, schema } = knownEvents[type];
  const event = schema.safeParse(body);
  if (!event.success) throw missingFields(fieldPaths(event.error));
  return { kind, event: event.data } as ParsedEvent;
}

