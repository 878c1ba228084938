"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { SURGE_SHAPE_NAMES, type SurgeShape } from "@/lib/exercises/shapes";
import { DEFAULT_SCENARIO_ID, findScenario, SCENARIOS } from "@/lib/scenarios/scenario-list";
import type { UnitType } from "@/lib/units/states";
import { humanize } from "../shared/call-status";
import { useCan } from "../shared/person";
import type { ExerciseAction, ExerciseView } from "./exercise-api";
import { useCurrentExercise, useExerciseActions } from "./use-exercises";

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

const PENDING_LABEL: Record<ExerciseAction, string> = { start: "starting", pause: "pausing", resume: "resuming", stop: "stopping" };

function Progress({ exercise }: { exercise: ExerciseView }) {
  const { control } = useExerciseActions();
  const canTrain = useCan("train");
  const { progress } = exercise;
  const act = (action: "pause" | "resume" | "stop") => control.mutate({ id: exercise.id, action });
  // Stopping closes the exercise's open calls too: on a busy server that takes seconds, said meanwhile.
  const pending = control.isPending ? control.variables?.action : undefined;
  return (
    <div className="exercise-progress" data-testid="exercise-progress">
      <p>
        <strong>{findScenario(exercise.scenario)?.name ?? exercise.scenario}</strong>, {humanize(exercise.shape)} at {exercise.speed}x:{" "}
        <span data-testid="exercise-state">{exercise.state}</span>
        {pending && <span className="muted" role="status"> ({PENDING_LABEL[pending]}…)</span>}
      </p>
      <progress max={progress.planned} value={progress.released} aria-label="Calls released" />
      <dl className="sim-figures">
        <dt>Released</dt>
        <dd data-testid="exercise-released">{progress.released} of {progress.planned}</dd>
        <dt>Calls per minute</dt>
        <dd>{progress.calls_per_minute}</dd>
        <dt>Elapsed</dt>
        <dd>{minutes(progress.elapsed_seconds)} of {exercise.duration_minutes}:00 (exercise time)</dd>
        <dt>Remaining</dt>
        <dd>{minutes(progress.remaining_wall_seconds)} (wall clock)</dd>
      </dl>
      <div className="exercise-controls">
        {canTrain && exercise.state === "running" && <button type="button" disabled={pending !== undefined} onClick={() => act("pause")}>Pause</button>}
        {canTrain && exercise.state === "paused" && <button type="button" disabled={pending !== undefined} onClick={() => act("resume")}>Resume</button>}
        {canTrain && (exercise.state === "running" || exercise.state === "paused") && (
          <button type="button" disabled={pending !== undefined} onClick={() => act("stop")}>Stop</button>
        )}
        <Link href={`/exercises/${exercise.id}`}>Debrief</Link>
      </div>
      {control.isError && <p className="form-error" role="alert">{control.error.message}</p>}
    </div>
  );
}

/** The unit types a trainer gives an exercise from the dashboard (the API takes every type). */
const SIMULATED_UNIT_TYPES = ["engine", "ambulance", "patrol"] as const satisfies readonly UnitType[];
type SimulatedUnitType = (typeof SIMULATED_UNIT_TYPES)[number];
const SIMULATED_UNIT_LABEL: Record<SimulatedUnitType, string> = { engine: "Engines", ambulance: "Ambulances", patrol: "Patrol cars" };

/** Plans and starts a training exercise, and shows the current one's progress and controls. */
export function ExercisePanel() {
  const { current, live } = useCurrentExercise();
  const { create } = useExerciseActions();
  const canTrain = useCan("train");
  const [scenario, setScenario] = useState(DEFAULT_SCENARIO_ID);
  const [duration, setDuration] = useState("60");
  const [calls, setCalls] = useState("500");
  const [shape, setShape] = useState<SurgeShape>("ramp-peak-decay");
  const [speed, setSpeed] = useState("1");
  const [livePercent, setLivePercent] = useState("0");
  const [unitCounts, setUnitCounts] = useState<Record<SimulatedUnitType, string>>({ engine: "0", ambulance: "0", patrol: "0" });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      scenario,
      duration_minutes: Number(duration),
      num_calls: Number(calls),
      shape,
      speed: Number(speed),
      live_share: Number(livePercent) / 100,
      units: SIMULATED_UNIT_TYPES.map((type) => ({ type, count: Number(unitCounts[type]) })).filter(({ count }) => count > 0),
      start: true,
    });
  };

  return (
    <section className="panel exercise" aria-labelledby="exercise-title">
      <header className="panel-head">
        <h2 id="exercise-title">Training exercise</h2>
      </header>
      {current && <Progress exercise={current} />}
      {!live && !canTrain && !current && <p className="muted">No exercise is running. A trainer starts one here.</p>}
      {!live && canTrain && (
        <form onSubmit={submit} aria-label="Start a training exercise">
          <label className="field">
            <span>Scenario</span>
            <select name="exercise_scenario" value={scenario} onChange={(event) => setScenario(event.target.value)}>
              {SCENARIOS.map((option) => <option key={option.id} value={option.id}>{option.name}</option>)}
            </select>
          </label>
          <label className="field">
            <span>Duration (minutes, 1 to 240)</span>
            <input name="exercise_duration" type="number" min={1} max={240} value={duration} onChange={(event) => setDuration(event.target.value)} />
          </label>
          <label className="field">
            <span>Calls (1 to 10,000)</span>
            <input name="exercise_calls" type="number" min={1} max={10000} value={calls} onChange={(event) => setCalls(event.target.value)} />
          </label>
          <label className="field">
            <span>Surge shape</span>
            <select name="exercise_shape" value={shape} onChange={(event) => setShape(event.target.value as SurgeShape)}>
              {SURGE_SHAPE_NAMES.map((name) => <option key={name} value={name}>{humanize(name)}</option>)}
            </select>
          </label>
          <label className="field">
            <span>Speed (1x to 60x)</span>
            <input name="exercise_speed" type="number" min={1} max={60} value={speed} onChange={(event) => setSpeed(event.target.value)} />
          </label>
          <label className="field">
            <span>Live calls (% of answered, 0 to 100: on the board while the caller talks)</span>
            <input name="exercise_live" type="number" min={0} max={100} value={livePercent} onChange={(event) => setLivePercent(event.target.value)} />
          </label>
          <fieldset className="field">
            <legend>Simulated units (their crews report by themselves; 100 in all at most)</legend>
            {SIMULATED_UNIT_TYPES.map((type) => (
              <label key={type}>
                <span>{SIMULATED_UNIT_LABEL[type]}</span>
                <input
                  name={`exercise_units_${type}`}
                  type="number"
                  min={0}
                  max={100}
                  value={unitCounts[type]}
                  onChange={(event) => setUnitCounts((counts) => ({ ...counts, [type]: event.target.value }))}
                />
              </label>
            ))}
          </fieldset>
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? "Planning…" : "Start exercise"}
          </button>
          {create.isError && <p className="form-error" role="alert">{create.error.message}</p>}
        </form>
      )}
    </section>
  );
}

/** Shown across the dashboard while an exercise may release calls: its calls are not real. */
export function ExerciseBanner() {
  const { live } = useCurrentExercise();
  if (!live) return null;
  return (
    <div className="exercise-banner" role="status" data-testid="exercise-banner">
      EXERCISE {live.state === "paused" ? "(paused)" : "in progress"}: calls marked EXERCISE are simulated,{" "}
      {live.progress.released} of {live.progress.planned} released
    </div>
  );
}
