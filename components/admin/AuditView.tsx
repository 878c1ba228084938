"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { WhoAmI } from "@/lib/access/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/schema";
import { type AuditFilters, listAudit } from "../shared/api";
import { formatTime } from "../shared/format";
import { AdminPage } from "./AdminPage";

const brief = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));

function Trail() {
  const [filters, setFilters] = useState<AuditFilters>({});
  const pages = useInfiniteQuery({
    queryKey: ["audit", filters],
    queryFn: ({ pageParam }) => listAudit(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? "").trim() || undefined;
    setFilters({ action: value("action"), actor: value("actor"), target_id: value("target_id") });
  };
  const events = pages.data?.pages.flatMap((page) => page.events) ?? [];

  return (
    <section className="panel" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit trail</h2>
      <form className="admin-form" onSubmit={submit} aria-label="Filter the audit trail">
        <label>
          Action
          <select name="action" defaultValue="">
            <option value="">Any</option>
            {AUDIT_ACTIONS.map((action) => <option key={action} value={action}>{action}</option>)}
          </select>
        </label>
        <label>Actor id<input name="actor" /></label>
        <label>Target id<input name="target_id" /></label>
        <button type="submit">Filter</button>
      </form>
      {pages.error && <p role="alert" className="form-error">{pages.error.message}</p>}
      {/* Wide before/after values wrap, and the table scrolls inside its panel rather than past it. */}
      <div className="table-wrap">
        <table aria-label="Audit events, newest first" className="audit-table">
          <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Target</th><th>Before</th><th>After</th><th>From</th></tr></thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id} data-action={event.action}>
                <td><time dateTime={event.at}>{formatTime(event.at)}</time></td>
                <td>{event.actor.name} <span className="muted">({event.actor.kind})</span></td>
                <td>{event.action}</td>
                <td>{event.target ? `${event.target.kind} ${event.target.id}` : ""}</td>
                <td><code>{brief(event.before)}</code></td>
                <td><code>{brief(event.after)}</code></td>
                <td>{event.client_address ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages.hasNextPage && (
        <button type="button" onClick={() => pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>Older events</button>
      )}
    </section>
  );
}

/** Administrators' view of the audit trail: who changed or read what. */
export function AuditView({ person }: { person: WhoAmI }) {
  return (
    <AdminPage person={person} title="Mayday audit trail">
      <Trail />
    </AdminPage>
  );
}
