"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { WhoAmI } from "@/lib/access/schema";
import { BODY_FORMATS, type BodyFormat, EVENT_TYPES, type EventType } from "@/lib/subscriptions/event-types";
import {
  createSubscription, listDeliveries, listSubscriptions, removeSubscription, setSubscriptionEnabled, type SubscriptionView,
  type SubscriptionWithSecret,
} from "../shared/api";
import { formatTimeOrNever } from "../shared/format";
import { rereadQueries } from "../shared/reread";
import { AdminPage } from "./AdminPage";

/** What an administrator needs to know at a glance: paused, failing, retrying or delivering. */
function stateOf(subscription: SubscriptionView): string {
  if (!subscription.enabled) return "paused";
  if (subscription.health === "failing") return `failing since ${formatTimeOrNever(subscription.failing_since)}`;
  if (subscription.attempt > 0) return `retrying (attempt ${subscription.attempt + 1} at ${formatTimeOrNever(subscription.next_attempt_at)})`;
  return "delivering";
}

function Deliveries({ id }: { id: string }) {
  const deliveries = useQuery({ queryKey: ["subscription-deliveries", id], queryFn: () => listDeliveries(id), refetchInterval: 5_000 });
  return (
    <table aria-label="Latest deliveries">
      <thead><tr><th>When</th><th>Event</th><th>Attempt</th><th>Status</th><th>Latency</th><th>Error</th></tr></thead>
      <tbody>
        {deliveries.data?.deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td>{formatTimeOrNever(delivery.at)}</td>
            <td><code>{delivery.event_id}</code></td>
            <td>{delivery.attempt}</td>
            <td>{delivery.status ?? "no answer"}</td>
            <td>{delivery.latency_ms} ms</td>
            <td>{delivery.error ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Subscriptions() {
  const client = useQueryClient();
  const subscriptions = useQuery({ queryKey: ["subscriptions"], queryFn: listSubscriptions, refetchInterval: 5_000 });
  const refresh = () => rereadQueries(client, { queryKey: ["subscriptions"] });
  const [shown, setShown] = useState<SubscriptionWithSecret | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [types, setTypes] = useState<EventType[]>([...EVENT_TYPES]);
  const [format, setFormat] = useState<BodyFormat>("mayday");
  const create = useMutation({ mutationFn: createSubscription, onSuccess: (created) => { setShown(created); void refresh(); } });
  const toggle = useMutation({ mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => setSubscriptionEnabled(id, enabled), onSuccess: refresh });
  const remove = useMutation({ mutationFn: removeSubscription, onSuccess: refresh });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate(
      { name: String(data.get("name")), url: String(data.get("url")), event_types: types, body_format: format },
      { onSuccess: () => form.reset() },
    );
  };
  const flip = (type: EventType) => setTypes((list) => (list.includes(type) ? list.filter((t) => t !== type) : [...list, type]));
  const failure = create.error ?? toggle.error ?? remove.error;

  return (
    <section className="panel" aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title">Webhook subscriptions</h2>
      <form className="admin-form" onSubmit={submit} aria-label="Add a subscription">
        <label>Name<input name="name" required maxLength={120} placeholder="County CAD" /></label>
        <label>URL<input name="url" type="url" required placeholder="https://cad.example.org/mayday" /></label>
        <fieldset>
          <legend>Events</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type} style={{ display: "inline-flex", gap: "0.3rem", marginRight: "0.8rem" }}>
              <input type="checkbox" checked={types.includes(type)} onChange={() => flip(type)} /> {type}
            </label>
          ))}
        </fieldset>
        <label>
          Body
          <select name="body_format" value={format} onChange={(event) => setFormat(event.target.value as BodyFormat)}>
            {BODY_FORMATS.map((option) => <option key={option} value={option}>{option === "eido" ? "NENA EIDO" : "Mayday JSON"}</option>)}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending || types.length === 0}>Add subscription</button>
      </form>
      {failure && <p role="alert" className="form-error">{failure.message}</p>}
      {shown && (
        <div className="shown-once" role="status">
          <p>The signing secret of <strong>{shown.name}</strong>, shown this once:</p>
          <code data-testid="new-secret">{shown.secret}</code>
          <p><button type="button" onClick={() => setShown(null)}>I have stored it</button></p>
        </div>
      )}
      <table aria-label="Subscriptions">
        <thead><tr><th>Name</th><th>URL</th><th>Events</th><th>State</th><th>Last delivery</th><th>Last error</th><th /></tr></thead>
        <tbody>
          {subscriptions.data?.subscriptions.map((subscription) => (
            <tr key={subscription.id} data-health={subscription.health}>
              <td>{subscription.name}</td>
              <td><code>{subscription.url}</code></td>
              <td>{subscription.event_types.join(", ")} ({subscription.body_format})</td>
              <td>{stateOf(subscription)}</td>
              <td>{formatTimeOrNever(subscription.last_delivery_at)}</td>
              <td>{subscription.last_error ?? ""}</td>
              <td>
                <button type="button" onClick={() => toggle.mutate({ id: subscription.id, enabled: !subscription.enabled })}>
                  {subscription.enabled ? "Pause" : "Resume"}
                </button>
                <button type="button" onClick={() => setOpen(open === subscription.id ? null : subscription.id)}>Deliveries</button>
                <button type="button" onClick={() => window.confirm(`Remove ${subscription.name}?`) && remove.mutate(subscription.id)}>Remove</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {open && <Deliveries id={open} />}
    </section>
  );
}

/** Administrators' page: outbound webhook subscriptions and their delivery state (docs/integrations.md). */
export function SubscriptionsView({ person }: { person: WhoAmI }) {
  return (
    <AdminPage person={person} title="Webhooks">
      <Subscriptions />
    </AdminPage>
  );
}
