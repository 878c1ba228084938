"use client";

import { type Ref, useState } from "react";
import { humanize } from "../shared/call-status";
import { callersLabel } from "../shared/format";
import { formatDistance, shownAddress } from "../shared/precision";
import { useIncidentRegrouping, useMergeCandidates } from "../shared/use-calls";

/**
 * "Merge into this incident" (docs/dashboard.md, "Incidents"): the server's open incidents of the
 * same kind (training with training, real with real), nearest first, each with its distance, and
 * a search box that keeps those whose address or type holds the words typed (GET
 * /api/incidents/{id}/merge-candidates): any open incident, not only the queue rows read so far.
 */
export function MergeCandidates({ id, menuRef }: { id: string; menuRef: Ref<HTMLSelectElement> }) {
  const [words, setWords] = useState("");
  const [mergeWith, setMergeWith] = useState("");
  const { merge } = useIncidentRegrouping();
  const { data, isFetching } = useMergeCandidates(id, words, true);
  const candidates = data?.candidates ?? [];
  return (
    <form
      className="merge-form"
      role="search"
      aria-label="Merge another incident into this one"
      onSubmit={(event) => {
        event.preventDefault();
        if (mergeWith) merge.mutate({ id, otherId: mergeWith }, { onSuccess: () => setMergeWith("") });
      }}
    >
      <label className="field">
        <span>Find an open incident (address or type)</span>
        <input type="search" name="merge-search" value={words} maxLength={100} onChange={(event) => {
            setWords(event.target.value);
            setMergeWith("");
          }} />
      </label>
      <label className="field">
        <span>Merge into this incident</span>
        <select name="merge-with" ref={menuRef} value={mergeWith} onChange={(event) => setMergeWith(event.target.value)}>
          <option value="">
            {candidates.length === 0 ? (isFetching ? "Looking…" : "No open incident matches") : "Choose an open incident, nearest first"}
          </option>
          {candidates.map((other) => (
            <option key={other.id} value={other.id}>
              {humanize(other.emergency_type)}, {shownAddress(other)} ({callersLabel(other.call_count)}
              {other.distance_m !== null && `, ${formatDistance(other.distance_m)} away`})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={!mergeWith || merge.isPending}>Merge</button>
    </form>
  );
}
