import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normaliseSeverity } from "@/lib/calls/handed-over";
import { elevenLabsCall } from "@/lib/voice-platforms/elevenlabs/adapter";
import { normaliseIdentifier } from "@/lib/calls/sanitise";
import { parseEvent } from "@/lib/voice-platforms/elevenlabs/payload";
import { elevenLabsCallEvent, specCallEvent } from "@/lib/voice-platforms/elevenlabs/sample-events";

const callOf = (body: unknown) => {
  const parsed = parseEvent(body);
  if (parsed.kind !== "call") throw new Error("not a call event");
  return elevenLabsCall(parsed.event);
};

describe("webhook payload", () => {
  it.each([
    ["Structure Fire", "structure_fire"],
    ["power lines down", "power_lines_down"],
    ["medical-injuries", "medical_injuries"],
    ["  Shelter  Needed ", "shelter_needed"],
  ])("normalises the type %s to %s", (raw, expected) => {
    expect(normaliseIdentifier(raw)).toBe(expected);
  });

  it.each([
    ["CRITICAL", "critical"],
    ["High", "high"],
    ["moderate", "moderate"],
    ["medium", "moderate"],
    ["life-threatening", "critical"],
    ["", "high"],
    ["purple", "high"],
    ["constructor", "high"],
    ["__proto__", "high"],
  ])("normalises the severity %j to %s", (raw, expected) => {
    expect(normaliseSeverity(raw)).toBe(expected);
  });

  it("takes the record time from start_time_unix_secs, else event_timestamp", () => {
    expect(callOf(elevenLabsCallEvent("c1")).occurredAt.getTime()).toBe(1_767_229_100_000);
    expect(callOf(specCallEvent("c2")).occurredAt.getTime()).toBe(1_767_225_600_000);
  });

  it("ignores coordinates that are not both present and in range", () => {
    const event = specCallEvent("c3");
    const results = event.data.analysis.data_collection_results as Record<string, unknown>;
    results.latitude = { value: 95 };
    results.longitude = { value: -118 };
    expect(callOf(event).reported).toBeNull();
    results.latitude = { value: 34 };
    expect(callOf(event).reported).toEqual({ latitude: 34, longitude: -118 });
    results.longitude = { value: null };
    expect(callOf(event).reported).toBeNull();
  });

  it("takes the duration from the transcript span even for a transcript of 300,000 turns", () => {
    // About 5 MB of JSON, the webhook's body limit: spreading that many numbers into Math.max
    // overflows the call stack.
    const event = specCallEvent("c5");
    delete (event.data as { metadata?: unknown }).metadata;
    event.data.transcript = Array.from({ length: 300_000 }, (_, index) => ({ speaker: "caller", text: "", timestamp: index }));
    expect(callOf(event).durationSecs).toBe(299_999);
  });

  it("counts every transcript item in transcript_length, whatever it holds; stores the turns with text", () => {
    // Items as a platform (or a broken sender) may write them: turns with text, tool turns whose
    // message is null, blank turns, and values that are not turns at all.
    const item = fc.oneof(
      fc.record({ role: fc.constantFrom("agent", "user"), message: fc.string(), time_in_call_secs: fc.nat(600) }),
      fc.record({ role: fc.constant("agent"), message: fc.constant(null), tool_calls: fc.constant([{ tool_name: "report_emergency" }]) }),
      fc.record({ speaker: fc.string(), text: fc.oneof(fc.string(), fc.constant(" ")), timestamp: fc.nat() }),
      fc.constantFrom(null, 7, "text", []),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (items) => {
        const event = elevenLabsCallEvent("c6");
        (event.data as { transcript: unknown[] }).transcript = items;
        const call = callOf(event);
        expect(call.transcriptLength).toBe(items.length);
        const withText = items.filter((entry) => {
          if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return false;
          const words = "message" in entry ? entry.message : "text" in entry ? entry.text : null;
          return typeof words === "string" && words.trim() !== "";
        });
        expect(call.transcript).toHaveLength(withText.length);
      }),
    );
  });

  it("sorts other event types out before validating call fields", () => {
    expect(parseEvent({ type: "conversation_rated", data: { conversation_id: "c4" } })).toEqual({
      kind: "other",
      type: "conversation_rated",
      eventTimestamp: undefined,
      conversationId: "c4",
    });
  });
});
