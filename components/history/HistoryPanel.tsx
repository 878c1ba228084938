"use client";

import { memo, useState, type FormEvent } from "react";
import { EMERGENCY_TYPES, PLATFORMS, SEVERITIES, STATUSES } from "@/lib/vocabulary";
import { ApiRequestError, callsExportUrl, type CallFilters, type CallRecord } from "../shared/api";
import { CallDetail } from "../console/CallDetail";
import { humanize, STATUS_LABEL } from "../shared/call-status";
import { callSource, formatTime, PLATFORM_NAMES } from "../shared/format";
import { HourlyChart } from "./HourlyChart";
import { SeverityBadge } from "../shared/SeverityIcon";
import { StatusBadge } from "../shared/StatusBadge";
import { UnverifiedBadge } from "../shared/UnverifiedBadge";
import { useHistoryPage, useHourly, type SortOrder } from "../shared/use-calls";

const PAGE_SIZE = 25;

type Draft = Required<{ [K in keyof CallFilters]: string }>;
const EMPTY: Draft = {
  emergency_type: "", severity: "", status: "", start_date: "", end_date: "", location: "", q: "", simulation: "", table_name: "",
  platform: "",
};

/** The applied filters: only what was filled in, trimmed. */
function toFilters(draft: Draft): CallFilters {
  const filters: Record<string, string> = {};
  for (const [key, value] of Object.entries(draft)) if (value.trim() !== "") filters[key] = value.trim();
  return filters as CallFilters;
}

function SelectFilter({ id, label, value, options, onChange }: {
  id: keyof Draft; label: string; value: string; options: readonly string[]; onChange: (key: keyof Draft, value: string) => void;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <select name={id} value={value} onChange={(event) => onChange(id, event.target.value)}>
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option} value={option}>{STATUS_LABEL[option] ?? humanize(option)}</option>
        ))}
      </select>
    </label>
  );
}

function InputFilter({ id, label, type, value, onChange }: {
  id: keyof Draft; label: string; type: "date" | "search" | "text"; value: string; onChange: (key: keyof Draft, value: string) => void;
}) {
  return (
    <label className="field">
      <span>{label}</span>
      <input type={type} name={id} value={value} onChange={(event) => onChange(id, event.target.value)} />
    </label>
  );
}

/**
 * `enabled`: the history reads wait for the map's first answer, so the first markers come first.
 * Drawn again only when its own props or reads change, not with every update of the page around it.
 */
export const HistoryPanel = memo(function HistoryPanel({ onShowOnMap, enabled }: { onShowOnMap: (call: CallRecord) => void; enabled: boolean }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [filters, setFilters] = useState<CallFilters>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<SortOrder>("desc");
  const [detailId, setDetailId] = useState<string | null>(null);
  const listing = useHistoryPage(filters, page, PAGE_SIZE, sort, enabled);
  const chart = useHourly(filters, enabled);

  const edit = (key: keyof Draft, value: string) => setDraft((current) => ({ ...current, [key]: value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draft.start_date && draft.end_date && draft.start_date > draft.end_date) {
      setFormError("The start date must not be after the end date.");
      return;
    }
    setFormError(null);
    setFilters(toFilters(draft));
    setPage(0);
  };
  const reset = () => {
    setDraft(EMPTY);
    setFilters({});
    setFormError(null);
    setPage(0);
  };
  const data = listing.data;
  const total = data?.pagination.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : page * PAGE_SIZE + 1;
  const last = Math.min(total, (page + 1) * PAGE_SIZE);

  return (
    <section className="panel history" aria-labelledby="history-title">
      <header className="panel-head">
        <h2 id="history-title">History</h2>
        <div className="history-tools">
          {/* The server streams the file (any number of calls); the session cookie goes with the link. */}
          <a className="button" href={callsExportUrl(filters)} download>Export CSV</a>
        </div>
      </header>

      <form className="filters" onSubmit={apply} aria-label="History filters" noValidate>
        <SelectFilter id="emergency_type" label="Type" value={draft.emergency_type} options={EMERGENCY_TYPES} onChange={edit} />
        <SelectFilter id="severity" label="Severity" value={draft.severity} options={SEVERITIES} onChange={edit} />
        <SelectFilter id="status" label="Status" value={draft.status} options={STATUSES} onChange={edit} />
        <InputFilter id="start_date" label="From" type="date" value={draft.start_date} onChange={edit} />
        <InputFilter id="end_date" label="To" type="date" value={draft.end_date} onChange={edit} />
        <InputFilter id="location" label="Location" type="search" value={draft.location} onChange={edit} />
        <InputFilter id="q" label="Words said" type="search" value={draft.q} onChange={edit} />
        <label className="field">
          <span>Source</span>
          <select name="simulation" value={draft.simulation} onChange={(event) => edit("simulation", event.target.value)}>
            <option value="">Any</option>
            <option value="false">Real calls</option>
            <option value="true">Simulated</option>
          </select>
        </label>
        <InputFilter id="table_name" label="Table" type="text" value={draft.table_name} onChange={edit} />
        <label className="field">
          <span>Platform</span>
          <select name="platform" value={draft.platform} onChange={(event) => edit("platform", event.target.value)}>
            <option value="">Any</option>
            {PLATFORMS.map((platform) => (
              <option key={platform} value={platform}>{PLATFORM_NAMES[platform]}</option>
            ))}
          </select>
        </label>
        <div className="filter-buttons">
          <button type="submit" className="primary">Apply filters</button>
          <button type="button" onClick={reset}>Reset</button>
        </div>
        {formError && <p className="form-error" role="alert">{formError}</p>}
      </form>

      {/* An outage is announced once, by the banner at the top; a refused filter is told here. */}
      {listing.error && (
        <p className="form-error" role={listing.error instanceof ApiRequestError && listing.error.unreachable ? undefined : "alert"}>
          The history could not be loaded: {listing.error.message}
        </p>
      )}

      {chart.data && <HourlyChart series={chart.data} />}

      <div className={`history-body${detailId ? " with-detail" : ""}`}>
        <div className="table-wrap">
          <table className="history-table" aria-busy={listing.isFetching} aria-describedby="history-range">
            <thead>
              <tr>
                <th scope="col" aria-sort={sort === "desc" ? "descending" : "ascending"}>
                  <button type="button" className="link-button" onClick={() => { setSort(sort === "desc" ? "asc" : "desc"); setPage(0); }}>
                    Time {sort === "desc" ? "↓" : "↑"}
                    <span className="sr-only">{sort === "desc" ? ", newest first; sort oldest first" : ", oldest first; sort newest first"}</span>
                  </button>
                </th>
                <th scope="col">Type</th>
                <th scope="col">Severity</th>
                <th scope="col">Status</th>
                <th scope="col">Location</th>
                <th scope="col">Source</th>
                <th scope="col">Table</th>
              </tr>
            </thead>
            <tbody>
              {data?.calls.map((call) => (
                <tr key={call.conversation_id} data-call-id={call.conversation_id} className={detailId === call.conversation_id ? "selected" : undefined}>
                  <td>
                    <button type="button" className="link-button" onClick={() => setDetailId(call.conversation_id)} aria-label={`Details of call ${call.conversation_id} at ${formatTime(call.timestamp)}`}>
                      {formatTime(call.timestamp)}
                    </button>
                  </td>
                  <td>{humanize(call.emergency_type)}</td>
                  <td><SeverityBadge severity={call.severity} /></td>
                  <td><StatusBadge status={call.status} /></td>
                  <td>{call.location}</td>
                  <td>{callSource(call)} <UnverifiedBadge call={call} /></td>
                  <td>{call.table_name}</td>
                </tr>
              ))}
              {data && data.calls.length === 0 && (
                <tr><td colSpan={7} className="muted">No calls match these filters.</td></tr>
              )}
            </tbody>
          </table>
          <nav className="pagination" aria-label="History pages">
            <button type="button" onClick={() => setPage(page - 1)} disabled={page === 0}>Previous page</button>
            <span id="history-range" aria-live="polite">
              {total === 0 ? "No calls" : `Calls ${first.toLocaleString()}–${last.toLocaleString()} of ${total.toLocaleString()}`} · page {page + 1} of {pages}
            </span>
            <button type="button" onClick={() => setPage(page + 1)} disabled={page + 1 >= pages}>Next page</button>
          </nav>
        </div>
        {detailId && <CallDetail id={detailId} onClose={() => setDetailId(null)} onShowOnMap={onShowOnMap} />}
      </div>
    </section>
  );
});
