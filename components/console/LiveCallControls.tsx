"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { Delivery } from "@/lib/voice-platforms/control";
import { ApiRequestError, type CallRecord, instructAgent, transferCaller } from "../shared/api";
import { useMayAct } from "../shared/person";

/** What became of a push, in words: the instruction is kept for incident_status whatever happened. */
function deliveryText(delivery: Delivery, what: "instruction" | "transfer"): string {
  if (delivery.outcome === "pushed") return what === "instruction" ? "Sent to the agent." : "Transfer requested from the platform.";
  if (delivery.outcome === "waiting") return `Kept: the agent gets it when it next asks (${delivery.reason}).`;
  return what === "instruction"
    ? `Not pushed: ${delivery.reason}. Kept: the agent gets it when it next asks.`
    : `Transfer failed: ${delivery.reason}.`;
}

const failure = (error: unknown) => `Not done: ${error instanceof ApiRequestError ? error.message : "unexpected error"}`;

/** One form of a line and a button, its outcome (or error) announced below it. */
function ControlForm({ label, submitLabel, input, onSubmit, outcome, pending }: {
  label: string;
  submitLabel: string;
  input: React.ReactElement;
  onSubmit: () => void;
  outcome: string | null;
  pending: boolean;
}) {
  return (
    <form
      className="live-control-form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label className="field">
        <span>{label}</span>
        {input}
      </label>
      <button type="submit" disabled={pending}>{submitLabel}</button>
      {outcome && <p role="status" className="live-control-outcome">{outcome}</p>}
    </form>
  );
}

/**
 * A dispatcher's hand on a call still on the line (docs/webhook.md, "Live calls"): an instruction
 * for the voice agent, pushed through the platform's live control where it has one and kept for
 * the agent's incident_status; on Vapi calls, a transfer of the caller to a human number. Each
 * says what became of it.
 */
export function LiveCallControls({ call }: { call: CallRecord }) {
  const mayAct = useMayAct(call.simulation);
  const [text, setText] = useState("");
  const [number, setNumber] = useState("");
  const instruct = useMutation({ mutationFn: (instruction: string) => instructAgent(call.conversation_id, instruction), onSuccess: () => setText("") });
  const transfer = useMutation({ mutationFn: (to: string) => transferCaller(call.conversation_id, to) });
  if (!call.on_line || !mayAct) return null;
  const outcomeOf = (mutation: typeof instruct | typeof transfer, what: "instruction" | "transfer") =>
    mutation.error ? failure(mutation.error) : mutation.data ? deliveryText(mutation.data.delivery, what) : null;
  return (
    <section className="live-controls" aria-label="Live call">
      <ControlForm
        label="Instruction for the agent"
        submitLabel="Send to agent"
        input={<textarea name="instruction" rows={2} value={text} onChange={(event) => setText(event.target.value)} />}
        onSubmit={() => text.trim() !== "" && instruct.mutate(text)}
        outcome={outcomeOf(instruct, "instruction")}
        pending={instruct.isPending}
      />
      {call.platform === "vapi" && (
        <ControlForm
          label="Transfer caller to (E.164)"
          submitLabel="Transfer caller"
          input={<input name="transfer-number" type="tel" placeholder="+16155550100" value={number} onChange={(event) => setNumber(event.target.value)} />}
          onSubmit={() => number.trim() !== "" && transfer.mutate(number.trim())}
          outcome={outcomeOf(transfer, "transfer")}
          pending={transfer.isPending}
        />
      )}
    </section>
  );
}
