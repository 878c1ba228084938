"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { WhoAmI } from "@/lib/access/schema";
import type { PlanSlot, ResponsePlan } from "@/lib/units/plan-schema";
import { listResponsePlans, setResponsePlan } from "../shared/api";
import { inWords } from "../shared/call-status";
import { rereadQueries } from "../shared/reread";
import { AdminPage } from "./AdminPage";

const PLANS_KEY = ["response-plans"];

/** A plan as it is written on the page: "engine 2, ladder 1" (none: "no unit"). */
const planText = (slots: PlanSlot[]) => slots.map((slot) => `${slot.type} ${slot.count}`).join(", ");

/** "engine 2, ladder 1" as slots, or why it cannot be read; the server checks the types and counts. */
function readPlan(text: string): PlanSlot[] | string {
  const parts = text.split(",").map((part) => part.trim()).filter(Boolean);
  const slots: PlanSlot[] = [];
  for (const part of parts) {
    const match = /^([a-z]+)\s+(\d+)$/i.exec(part);
    if (!match) return `"${part}": write each unit type and its count, "engine 2", separated by commas`;
    slots.push({ type: match[1].toLowerCase() as PlanSlot["type"], count: Number(match[2]) });
  }
  return slots;
}

function PlanForm({ plan }: { plan: ResponsePlan }) {
  const client = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({ mutationFn: setResponsePlan, onSuccess: () => rereadQueries(client, { queryKey: PLANS_KEY }) });
  const id = `plan-${plan.emergency_type}-${plan.severity}`;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const slots = readPlan(String(new FormData(event.currentTarget).get("slots") ?? ""));
    setProblem(typeof slots === "string" ? slots : null);
    if (typeof slots !== "string") save.mutate({ emergency_type: plan.emergency_type, severity: plan.severity, slots });
  };
  const who = plan.source === "centre" ? `set by ${plan.updated_by_name} ${plan.updated_at ? new Date(plan.updated_at).toLocaleString() : ""}` : "default";
  return (
    <form className="admin-form" onSubmit={submit} aria-label={`Plan for ${inWords(plan.emergency_type)}, ${plan.severity}`} data-plan={id}>
      <label htmlFor={id}>{plan.severity}</label>
      <input id={id} name="slots" defaultValue={planText(plan.slots)} key={planText(plan.slots)} placeholder="no unit" size={40} />
      <button type="submit" disabled={save.isPending}>Save<span className="sr-only"> {inWords(plan.emergency_type)}, {plan.severity}</span></button>
      <span>{who}</span>
      {(problem ?? save.error?.message) && <p role="alert">{problem ?? save.error?.message}</p>}
    </form>
  );
}

function Plans() {
  const plans = useQuery({ queryKey: PLANS_KEY, queryFn: listResponsePlans });
  const byType = new Map<string, ResponsePlan[]>();
  for (const plan of plans.data?.plans ?? []) byType.set(plan.emergency_type, [...(byType.get(plan.emergency_type) ?? []), plan]);
  return (
    <section className="panel" aria-labelledby="plans-title">
      <h2 id="plans-title">Response plans</h2>
      <p>
        Per emergency type and severity, the unit types and counts a recommendation fills, in order: each slot gets the free unit of
        its type with the shortest travel time. Write <code>engine 2, ladder 1, ambulance 1</code>; leave it empty when no unit goes.
        Types: engine, ladder, rescue, ambulance, patrol, hazmat, command, other.
      </p>
      {plans.error && <p role="alert">{plans.error.message}</p>}
      <table aria-label="Response plans">
        <thead><tr><th>Emergency type</th><th>Plans</th><th>Why the default</th></tr></thead>
        <tbody>
          {[...byType].map(([type, severities]) => (
            <tr key={type}>
              <th scope="row">{inWords(type)}</th>
              <td>{severities.map((plan) => <PlanForm key={plan.severity} plan={plan} />)}</td>
              <td>{severities[0].reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Administrators' page: the response plans, each the centre's or the default (docs/units.md, "Response plans"). */
export function ResponsePlansView({ person }: { person: WhoAmI }) {
  return (
    <AdminPage person={person} title="Response plans">
      <Plans />
    </AdminPage>
  );
}
