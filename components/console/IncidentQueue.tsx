"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { SCENARIOS } from "@/lib/scenarios/scenario-list";
import { isStreetLevel } from "@/lib/geocoding/precision";
import { SEVERITIES, type Severity } from "@/lib/vocabulary";
import type { AlertIncident, IncidentKind, IncidentQueuePage, LiveIncident, QueueSection, QueueSort, QueueView } from "../shared/api";
import { AlertStrip } from "./AlertStrip";
import { humanize, SEVERITY_LABEL, severityOf } from "../shared/call-status";
import { callersLabel, formatWaiting } from "../shared/format";
import { duplicateApart, precisionLabel, shownAddress } from "../shared/precision";
import { locating, OnTheLine } from "../shared/OnTheLine";
import { severitySvg } from "../shared/SeverityIcon";
import { StatusBadge } from "../shared/StatusBadge";
import { IncidentStatusActions } from "./StatusActions";
import { storedSetting } from "../shared/stored-setting";
import type { AlertState } from "./use-alerts";
import { useQueueSection } from "../shared/use-calls";
import { NEW_FOR_MS } from "./use-change-feed";
import { useNow } from "../shared/use-now";
import { useWrappedRows } from "./use-wrapped-rows";

/** A row's height before it is measured (px at the default font size), compact and comfortable. */
const ROW_ESTIMATE_PX = { compact: 30, comfortable: 48 } as const;
/** The next page is read when the list's end is this many rows away. */
const READ_AHEAD_ROWS = 20;

/** The queue's order and place filter, remembered by this browser. */
export const queueSort = storedSetting<QueueSort>("mayday.queue.sort", ["priority", "received"], "priority");
const PLACES = SCENARIOS.flatMap((scenario) => [scenario.id, ...scenario.areas.map((area) => `${scenario.id}/${area.name}`)]);
export const queuePlace = storedSetting<string>("mayday.queue.place", ["", ...PLACES], "");
/** Compact one-line rows (the default), or comfortable ones with the latest call's summary under the address. */
type RowMode = keyof typeof ROW_ESTIMATE_PX;
export const queueRows = storedSetting<RowMode>("mayday.queue.rows", ["compact", "comfortable"], "compact");

/** The server's view of a section of one kind under the remembered order and place. */
export function queueView(section: QueueSection, kind: IncidentKind, sort: QueueSort, place: string): QueueView {
  const [scenario, area] = place === "" ? [undefined, undefined] : place.split("/");
  return { section, kind, sort, scenario, area };
}

/** What a section's infinite query holds: its pages, and how to read the next one. */
export interface SectionRows {
  pages: IncidentQueuePage[] | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  isPending: boolean;
}

export const rowsOf = (rows: SectionRows): LiveIncident[] => rows.pages?.flatMap((page) => page.incidents) ?? [];

/** A section's infinite query as the queue reads it. */
function sectionRows(query: ReturnType<typeof useQueueSection>): SectionRows {
  return {
    pages: query.data?.pages,
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
    isPending: query.isPending,
  };
}

/** The queue's four parts: each kind's two sections, real ones above training ones. */
export type QueueSections = Record<IncidentKind, Record<QueueSection, SectionRows>>;

/**
 * Every section of the queue under the remembered order and place (docs/dashboard.md, "Incident
 * queue"), each read from the server by kind: real incidents' sections, then training ones'.
 * Answers them, the rows read so far and the first error.
 */
export function useQueueSections(): { sections: QueueSections; loaded: LiveIncident[]; error: Error | null } {
  const sort = queueSort.useValue();
  const place = queuePlace.useValue();
  const realWaiting = useQueueSection(queueView("waiting", "real", sort, place), true);
  const realDispatched = useQueueSection(queueView("dispatched", "real", sort, place), true);
  const trainingWaiting = useQueueSection(queueView("waiting", "training", sort, place), true);
  const trainingDispatched = useQueueSection(queueView("dispatched", "training", sort, place), true);
  const [realWaitingPages, realDispatchedPages] = [realWaiting.data?.pages, realDispatched.data?.pages];
  const [trainingWaitingPages, trainingDispatchedPages] = [trainingWaiting.data?.pages, trainingDispatched.data?.pages];
  const loaded = useMemo(
    () => [realWaitingPages, realDispatchedPages, trainingWaitingPages, trainingDispatchedPages].flatMap((pages) => pages ?? []).flatMap((page) => page.incidents),
    [realWaitingPages, realDispatchedPages, trainingWaitingPages, trainingDispatchedPages],
  );
  return {
    sections: {
      real: { waiting: sectionRows(realWaiting), dispatched: sectionRows(realDispatched) },
      training: { waiting: sectionRows(trainingWaiting), dispatched: sectionRows(trainingDispatched) },
    },
    loaded,
    error: realWaiting.error ?? realDispatched.error ?? trainingWaiting.error ?? trainingDispatched.error ?? null,
  };
}

interface RowProps {
  arrivals: Map<string, number>;
  alerts: AlertState;
  selected: string | null;
  onSelect: (incident: LiveIncident) => void;
}

/** The incident whose row held the focus when it left its section, and when. */
let focusLeftWith: { id: string; at: number } | null = null;
/** A row that takes the focus back appears within this long (the server's confirmation of a move). */
const FOCUS_FOLLOWS_MS = 10_000;

/**
 * The focus follows an incident's row from one section to the other: a move made from the keyboard
 * (Dispatched, say) sends the row to "Dispatched / en route" once the server confirms it, and the
 * focus would otherwise fall to the page.
 */
function useFocusFollowsRow(id: string) {
  const title = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const button = title.current;
    // Only a focus that fell to the page is taken back: never from where the person has gone since.
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (focusLeftWith?.id === id && Date.now() - focusLeftWith.at < FOCUS_FOLLOWS_MS && lost) {
      focusLeftWith = null;
      button?.focus();
    }
    return () => {
      const row = button?.closest(".queue-item");
      if (!row || !row.contains(document.activeElement)) return;
      // The row's other drawing may already be there (the other section read first), else it comes later.
      const other = [...document.querySelectorAll<HTMLElement>(`.queue-item[data-incident-id="${CSS.escape(id)}"] .queue-title`)].find((candidate) => !row.contains(candidate));
      if (other) queueMicrotask(() => other.focus());
      else focusLeftWith = { id, at: Date.now() };
    };
  }, [id]);
  return title;
}

/** A possible duplicate's mark on a row: the nearest one's distance and time in its title (docs/dashboard.md, "Incidents"). */
function DuplicateBadge({ incident }: { incident: LiveIncident }) {
  const [nearest] = incident.possible_duplicates;
  if (!nearest) return null;
  const more = incident.possible_duplicates.length > 1 ? ` and ${incident.possible_duplicates.length - 1} more` : "";
  return (
    <span className="duplicate-badge" data-testid="duplicate-badge" title={`Possible duplicate of ${nearest.location}: ${duplicateApart(nearest)}${more}`}>
      Duplicate?
    </span>
  );
}

/**
 * One line: severity, type, the full address, callers, and how long it has waited (or since
 * dispatched); its moves on hover or focus. Comfortable rows add the latest call's summary below.
 */
function QueueRow({ incident, now, arrivals, alerts, onSelect, section, mode }: RowProps & { incident: LiveIncident; now: number; section: QueueSection; mode: RowMode }) {
  const latest = incident.latest_call;
  const title = useFocusFollowsRow(incident.id);
  const seen = arrivals.get(latest.conversation_id) ?? 0;
  const fresh = seen > 0 && now - seen < NEW_FOR_MS;
  const alerting = alerts.alerting(incident.id);
  // "Waiting" until the first dispatch, then "since dispatched".
  const sinceDispatch = section === "dispatched" ? incident.dispatched_at : null;
  const onLine = incident.on_line_since !== null;
  const where = locating(incident.location, onLine)
    ? "locating…"
    : `${shownAddress(incident)}${
      incident.latitude === null ? " (not on the map)" : isStreetLevel(incident.location_precision) ? "" : ` (${precisionLabel(incident.location_precision, incident.location_uncertainty_m)})`
    }`;
  return (
    <>
      <span className="sev-icon" title={SEVERITY_LABEL[severityOf(incident.severity)]} dangerouslySetInnerHTML={{ __html: severitySvg(incident.severity, 16) }} />
      <button ref={title} type="button" className="link-button queue-title" onClick={() => onSelect(incident)}>
        <span className="sr-only">{SEVERITY_LABEL[severityOf(incident.severity)]}: </span>
        {humanize(incident.emergency_type)}
        <span className="sr-only">: show its calls{incident.latitude !== null ? " and its place on the map" : ""}</span>
      </button>
      <span className="queue-location" title={where}>{where}</span>
      {latest.exercise_id && <span className="exercise-badge">Exercise</span>}
      {incident.on_line_since !== null && <OnTheLine since={incident.on_line_since} />}
      {(fresh || alerting) && <span className="new-badge">New</span>}
      <DuplicateBadge incident={incident} />
      {/* The second section's status; in the first, a move made here that the server has yet to confirm. */}
      {(section === "dispatched" || incident.status !== "active") && <StatusBadge status={incident.status} />}
      <span className="caller-count" data-testid="caller-count" title="Calls about this incident">{callersLabel(incident.call_count)}</span>
      <span className="waiting" title={sinceDispatch ? "Since it was dispatched" : "Waiting since its first call was received"}>
        <span className="sr-only">{sinceDispatch ? "Since dispatched " : "Waiting "}</span>
        {formatWaiting(now / 1000 - Date.parse(sinceDispatch ?? incident.queued_at) / 1000)}
      </span>
      {/* The next move's button (the others are in the incident's detail); it goes once the move is
          made: the focus waits on the row's title meanwhile. */}
      <span className="row-actions" onClickCapture={() => title.current?.focus()}>
        <IncidentStatusActions id={incident.id} status={incident.status} training={incident.training} nextOnly />
      </span>
      {mode === "comfortable" && <span className="queue-summary" title={latest.summary}>{latest.summary || "No summary."}</span>}
    </>
  );
}

/**
 * One section of the queue, virtualised: only the rows in view are drawn, and the next keyset page
 * is read as the end comes into view, so every open incident is reachable however many there are.
 */
function Section({ id, title, section, kind, rows, total, collapsed, onToggle, ...rowProps }: RowProps & {
  id: string;
  title: string;
  section: QueueSection;
  kind: IncidentKind;
  rows: SectionRows;
  total: number;
  collapsed: boolean;
  onToggle: () => void;
}) {
  const now = useNow();
  const mode = queueRows.useValue();
  const scroller = useRef<HTMLDivElement>(null);
  useWrappedRows(scroller);
  const incidents = rowsOf(rows);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer measures on scroll: this component is left unmemoised on purpose
  const virtualizer = useVirtualizer({
    count: incidents.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE_PX[mode],
    overscan: 10,
    getItemKey: (index) => incidents[index].id,
  });
  const items = virtualizer.getVirtualItems();
  const lastShown = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = rows;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= incidents.length - READ_AHEAD_ROWS) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastShown, incidents.length]);

  return (
    <section className={`queue-section section-${section} kind-${kind} rows-${mode}${collapsed ? " is-collapsed" : ""}${incidents.length === 0 ? " is-empty" : ""}`} aria-labelledby={`${id}-title`}>
      <h3 className="queue-section-title" id={`${id}-title`}>
        <button type="button" className="section-toggle" aria-expanded={!collapsed} aria-controls={id} onClick={onToggle}>
          {title}
        </button>
        <span className="section-count" data-testid={kind === "real" ? `section-count-${section}` : `section-count-${kind}-${section}`}>{total.toLocaleString()}</span>
      </h3>
      {!collapsed && (
        <div className="queue-scroll" ref={scroller} id={id}>
          {rows.isPending ? (
            <p className="muted">Loading incidents…</p>
          ) : incidents.length === 0 ? (
            // The title's count says 0 already: the line goes to the rows of the other sections.
            <p className="sr-only">None.</p>
          ) : (
            <ol className="queue-list" aria-label={`${title}: ${total.toLocaleString()} incidents`} style={{ height: virtualizer.getTotalSize() }}>
              {items.map((item) => {
                const incident = incidents[item.index];
                const fresh = (rowProps.arrivals.get(incident.latest_call.conversation_id) ?? 0) > now - NEW_FOR_MS;
                return (
                  <li
                    key={item.key}
                    ref={virtualizer.measureElement}
                    data-index={item.index}
                    aria-setsize={total}
                    aria-posinset={item.index + 1}
                    className={`queue-item sev-${severityOf(incident.severity)}${fresh ? " is-new" : ""}${rowProps.alerts.alerting(incident.id) ? " is-alerting" : ""}${rowProps.selected === incident.id ? " is-selected" : ""}`}
                    data-incident-id={incident.id}
                    data-latest-call-id={incident.latest_call.conversation_id}
                    style={{ transform: `translateY(${item.start}px)` }}
                  >
                    <QueueRow incident={incident} now={now} section={section} mode={mode} {...rowProps} />
                  </li>
                );
              })}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}

/** Each section folded or not, remembered by this browser. */
const collapsedSetting = (name: string) => storedSetting(`mayday.queue.collapsed.${name}`, ["0", "1"], "0");
const COLLAPSED = {
  real: { waiting: collapsedSetting("waiting"), dispatched: collapsedSetting("dispatched") },
  training: { waiting: collapsedSetting("training.waiting"), dispatched: collapsedSetting("training.dispatched") },
} satisfies Record<IncidentKind, Record<QueueSection, unknown>>;

/** Each section's heading: training ones say so, below every real one. */
const SECTION_TITLE: Record<IncidentKind, Record<QueueSection, string>> = {
  real: { waiting: "Waiting", dispatched: "Dispatched / en route" },
  training: { waiting: "Training: waiting", dispatched: "Training: dispatched / en route" },
};

/** One section with its remembered fold. */
function KindSection({ kind, section, rows, ...rowProps }: RowProps & { kind: IncidentKind; section: QueueSection; rows: SectionRows }) {
  const setting = COLLAPSED[kind][section];
  const collapsed = setting.useValue() === "1";
  return (
    <Section
      id={`queue-${kind}-${section}`}
      title={SECTION_TITLE[kind][section]}
      section={section}
      kind={kind}
      rows={rows}
      total={rows.pages?.[0]?.total ?? 0}
      collapsed={collapsed}
      onToggle={() => setting.set(collapsed ? "0" : "1")}
      {...rowProps}
    />
  );
}

/**
 * The queue (docs/dashboard.md, "Incident queue"): the server's counts of open incidents, in all
 * and per severity (calls as the second figure), the alert strips (real, then training), then two
 * sections, "Waiting" and "Dispatched / en route", each every open real incident of its statuses
 * in the server's order (priority then age, or time received), under a place filter, as compact
 * rows in a virtualised list; below them, each while it holds any, the training incidents' two sections.
 */
export function IncidentQueue({ sections, openCalls, openIncidents, incidentsBySeverity, callsBySeverity, alerts, onSelectAlert, ...rowProps }: RowProps & {
  sections: QueueSections;
  openCalls: number;
  openIncidents: number;
  incidentsBySeverity: Record<Severity, number> | undefined;
  callsBySeverity: Record<Severity, number> | undefined;
  onSelectAlert: (incident: AlertIncident) => void;
}) {
  const sort = queueSort.useValue();
  const place = queuePlace.useValue();
  const rowMode = queueRows.useValue();
  const totalOf = (rows: SectionRows) => rows.pages?.[0]?.total ?? 0;
  const newAlerts = alerts.list?.new.total ?? 0;
  // Training sections only while they hold incidents: the real ones keep the room.
  const trainingShown = (section: QueueSection) => totalOf(sections.training[section]) > 0;

  return (
    <section className="panel queue" aria-labelledby="queue-title">
      <header className="panel-head">
        <h2 id="queue-title">Incident queue</h2>
        <span className="queue-totals">
          <span className="incident-total" data-testid="incident-total" title="Open incidents">
            {openIncidents.toLocaleString()} {openIncidents === 1 ? "incident" : "incidents"}
          </span>
          {" · "}
          <span className="queue-total" title="Open calls">{openCalls.toLocaleString()} calls</span>
        </span>
      </header>
      <ul className="severity-counts" aria-label="Open incidents by severity, and their calls">
        {SEVERITIES.map((level) => (
          <li key={level} className={`count sev-${level}`}>
            <span className="sev-icon" dangerouslySetInnerHTML={{ __html: severitySvg(level, 16) }} />
            <span className="count-label">{SEVERITY_LABEL[level]}</span>
            <strong data-testid={`count-${level}`} title="Open incidents">{(incidentsBySeverity?.[level] ?? 0).toLocaleString()}</strong>
            <span className="count-calls" data-testid={`calls-${level}`} title="Their open calls">
              {(callsBySeverity?.[level] ?? 0).toLocaleString()} calls
            </span>
          </li>
        ))}
      </ul>
      <div className="queue-tools">
        <label>
          Order{" "}
          <select value={sort} onChange={(event) => queueSort.set(event.target.value as QueueSort)} data-testid="queue-sort">
            <option value="priority">Priority, then age</option>
            <option value="received">Latest received</option>
          </select>
        </label>
        <label>
          Place{" "}
          <select value={place} onChange={(event) => queuePlace.set(event.target.value)} data-testid="queue-place">
            <option value="">Every place</option>
            {SCENARIOS.map((scenario) => (
              <optgroup key={scenario.id} label={scenario.name}>
                <option value={scenario.id}>All of {scenario.name}</option>
                {scenario.areas.map((area) => (
                  <option key={area.name} value={`${scenario.id}/${area.name}`}>{area.name}</option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          Rows{" "}
          <select value={rowMode} onChange={(event) => queueRows.set(event.target.value as RowMode)} data-testid="queue-rows">
            <option value="compact">Compact</option>
            <option value="comfortable">Comfortable</option>
          </select>
        </label>
      </div>
      <p className="sr-only" aria-live="polite">
        {newAlerts > 0 ? `${newAlerts} critical or high ${newAlerts === 1 ? "incident has" : "incidents have"} a new call not yet acknowledged` : ""}
      </p>
      <AlertStrip alerts={alerts} onSelect={onSelectAlert} />
      <div className="queue-sections">
        <KindSection kind="real" section="waiting" rows={sections.real.waiting} alerts={alerts} {...rowProps} />
        <KindSection kind="real" section="dispatched" rows={sections.real.dispatched} alerts={alerts} {...rowProps} />
        {trainingShown("waiting") && <KindSection kind="training" section="waiting" rows={sections.training.waiting} alerts={alerts} {...rowProps} />}
        {trainingShown("dispatched") && (
          <KindSection kind="training" section="dispatched" rows={sections.training.dispatched} alerts={alerts} {...rowProps} />
        )}
      </div>
    </section>
  );
}
