"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { DEFAULT_SCENARIO_ID, SCENARIOS } from "@/lib/scenarios/scenario-list";
import { DUPLICATE_SHARE, MAX_DUPLICATE_SHARE } from "@/lib/simulation/duplicate-share";
import { TABLE_NAME_PATTERN } from "@/lib/vocabulary";
import { simulate, type SimulateRequest, type SimulateResult } from "../shared/api";
import { humanize } from "../shared/call-status";
import { useNow } from "../shared/use-now";
import { rereadQueries } from "../shared/reread";

/** The dashboard offers 1 to 100 calls (the API itself takes up to 1000). */
const MAX_CALLS = 100;
const DEFAULT_TABLE = "wildfire-simulation-calls";

const MAX_DUPLICATE_PERCENT = Math.round(MAX_DUPLICATE_SHARE * 100);

interface Errors { num_calls?: string; table_name?: string; duplicates?: string }

function validate(numCalls: string, tableName: string, duplicates: string): Errors {
  const errors: Errors = {};
  const n = Number(numCalls);
  if (numCalls.trim() === "" || !Number.isInteger(n) || n < 1 || n > MAX_CALLS) {
    errors.num_calls = `Enter a whole number of calls from 1 to ${MAX_CALLS}.`;
  }
  const percent = Number(duplicates);
  if (duplicates.trim() === "" || !Number.isInteger(percent) || percent < 0 || percent > MAX_DUPLICATE_PERCENT) {
    errors.duplicates = `Enter a whole percentage from 0 to ${MAX_DUPLICATE_PERCENT}.`;
  }
  if (!TABLE_NAME_PATTERN.test(tableName)) {
    errors.table_name = "Use 3 to 255 letters, digits, dots, dashes or underscores.";
  }
  return errors;
}

function Result({ result }: { result: SimulateResult }) {
  return (
    <div className="sim-result" role="status">
      <p className="sim-message"><strong>{result.message}</strong></p>
      <dl className="sim-figures">
        <dt>Successful</dt><dd data-testid="sim-successful">{result.successful}</dd>
        <dt>Failed</dt><dd data-testid="sim-failed">{result.failed}</dd>
        <dt>Generation</dt><dd>{result.generation_method}{result.ai_fallbacks ? ` (${result.ai_fallbacks} fell back)` : ""}</dd>
      </dl>
      {result.sample_calls.length > 0 && (
        <>
          <h3>Sample calls</h3>
          <ul className="sim-samples">
            {result.sample_calls.map((call) => (
              <li key={call.call_id}><code>{call.call_id}</code> {humanize(call.emergency_type)}, {call.location}</li>
            ))}
          </ul>
        </>
      )}
      {result.errors.length > 0 && (
        <>
          <h3>Errors</h3>
          <ul className="sim-errors">{result.errors.map((error) => <li key={error}>{error}</li>)}</ul>
        </>
      )}
    </div>
  );
}

/** Runs a disaster simulation; when it is done the map moves to the scenario's region. */
export function SimulationForm({ onSimulated }: { onSimulated: (scenario: string) => void }) {
  const client = useQueryClient();
  const [scenario, setScenario] = useState(DEFAULT_SCENARIO_ID);
  const [numCalls, setNumCalls] = useState("10");
  const [tableName, setTableName] = useState(DEFAULT_TABLE);
  const [duplicates, setDuplicates] = useState(String(Math.round(DUPLICATE_SHARE * 100)));
  const [errors, setErrors] = useState<Errors>({});
  const [startedAt, setStartedAt] = useState(0);
  const now = useNow(250);
  const run = useMutation({
    mutationFn: (body: SimulateRequest) => simulate(body),
    onSuccess: (result) => {
      void rereadQueries(client, { queryKey: ["calls"] });
      onSimulated(result.scenario);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(numCalls, tableName, duplicates);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setStartedAt(Date.now());
    run.mutate({ scenario, num_calls: Number(numCalls), table_name: tableName, duplicate_share: Number(duplicates) / 100 });
  };

  return (
    <section className="panel simulation" aria-labelledby="sim-title">
      <header className="panel-head">
        <h2 id="sim-title">Simulation</h2>
      </header>
      <form onSubmit={submit} noValidate aria-label="Run a disaster simulation">
        <label className="field">
          <span>Scenario</span>
          <select name="scenario" value={scenario} onChange={(event) => setScenario(event.target.value)}>
            {SCENARIOS.map((option) => (
              <option key={option.id} value={option.id}>{option.name}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Number of calls (1 to {MAX_CALLS})</span>
          <input
            name="num_calls" type="number" inputMode="numeric" min={1} max={MAX_CALLS} step={1} value={numCalls}
            aria-invalid={errors.num_calls ? true : undefined} aria-describedby={errors.num_calls ? "num-calls-error" : undefined}
            onChange={(event) => setNumCalls(event.target.value)}
          />
        </label>
        {errors.num_calls && <p id="num-calls-error" className="form-error">{errors.num_calls}</p>}
        <label className="field">
          <span>Duplicate callers, % (0 to {MAX_DUPLICATE_PERCENT})</span>
          <input
            name="duplicate_share" type="number" inputMode="numeric" min={0} max={MAX_DUPLICATE_PERCENT} step={1} value={duplicates}
            aria-invalid={errors.duplicates ? true : undefined} aria-describedby={errors.duplicates ? "duplicates-error" : undefined}
            onChange={(event) => setDuplicates(event.target.value)}
          />
        </label>
        {errors.duplicates && <p id="duplicates-error" className="form-error">{errors.duplicates}</p>}
        <label className="field">
          <span>Table name</span>
          <input
            name="table_name" type="text" value={tableName}
            aria-invalid={errors.table_name ? true : undefined} aria-describedby={errors.table_name ? "table-name-error" : undefined}
            onChange={(event) => setTableName(event.target.value)}
          />
        </label>
        {errors.table_name && <p id="table-name-error" className="form-error">{errors.table_name}</p>}
        <button type="submit" className="primary" disabled={run.isPending}>
          {run.isPending ? "Simulating…" : "Run simulation"}
        </button>
      </form>
      {run.isPending && (
        <div className="sim-progress" role="status">
          <progress aria-label="Simulation running" />
          <span>Generating calls… {Math.max(0, Math.round((now - startedAt) / 1000))} s</span>
        </div>
      )}
      {run.isError && <p className="form-error" role="alert">Simulation failed: {run.error.message}</p>}
      {run.isSuccess && <Result result={run.data} />}
    </section>
  );
}
