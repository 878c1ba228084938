import { z } from "zod";
import { invalidParameter } from "../domain-error";
import { DEFAULT_SCENARIO_ID, SCENARIO_IDS } from "../scenarios/scenario-list";
import { unitIntervalsSchema } from "../reports/schema";
import { UNIT_TYPES } from "../units/states";
import { SURGE_SHAPE_NAMES } from "./shapes";

/**
 * The exercise API's schemas (docs/exercises.md). No database or next/* import: the endpoint
 * registry, which proxy.ts loads, references them.
 */

export const MAX_EXERCISE_CALLS = 10_000;
export const MAX_EXERCISE_MINUTES = 240;
export const MAX_EXERCISE_UNITS = 100;
export const EXERCISE_STATES = ["planned", "running", "paused", "stopped", "completed"] as const;
export type ExerciseState = (typeof EXERCISE_STATES)[number];
export const EXERCISE_ACTIONS = ["start", "pause", "resume", "stop"] as const;
export type ExerciseAction = (typeof EXERCISE_ACTIONS)[number];

export const createExerciseSchema = z
  .object({
    scenario: z.enum(SCENARIO_IDS as [string, ...string[]]).default(DEFAULT_SCENARIO_ID),
    duration_minutes: z.number().int().min(1).max(MAX_EXERCISE_MINUTES).default(60),
    num_calls: z
      .number()
      .int()
      .min(1)
      .max(MAX_EXERCISE_CALLS)
      .optional()
      .meta({ description: "Calls over the whole exercise; give this or peak_calls_per_minute (default 100)" }),
    peak_calls_per_minute: z
      .number()
      .positive()
      .optional()
      .meta({ description: "Calls per exercise minute at the curve's peak; the number of calls follows from the shape" }),
    shape: z.enum(SURGE_SHAPE_NAMES).default("ramp-peak-decay"),
    speed: z.number().min(1).max(60).default(1).meta({ description: "Exercise minutes per wall-clock minute (1 to 60)" }),
    abandoned_share: z
      .number()
      .min(0)
      .max(0.9)
      .default(0.15)
      .meta({ description: "Share of calls abandoned before an answer (stored as failed)" }),
    live_share: z
      .number()
      .min(0)
      .max(1)
      .default(0)
      .meta({
        description:
          "Share of answered calls released live (0 to 1): on the line from their release with their first transcript turns, " +
          "located 15-60 exercise seconds in, completed by the post-call analysis at their duration",
      }),
    units: z
      .array(z.object({ type: z.enum(UNIT_TYPES), count: z.number().int().min(1).max(MAX_EXERCISE_UNITS) }))
      .max(UNIT_TYPES.length)
      .default([])
      .refine((units) => units.reduce((sum, { count }) => sum + count, 0) <= MAX_EXERCISE_UNITS, {
        message: `at most ${MAX_EXERCISE_UNITS} simulated units in all`,
      })
      .meta({
        description:
          "Simulated units made with the exercise, per type, at stations in the scenario's areas: they serve only its incidents, " +
          "and their crews report each state by themselves once sent (docs/exercises.md, \"Simulated units\")",
      }),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().meta({ description: "Same seed and settings: the same plan" }),
    start: z.boolean().default(false).meta({ description: "Start at once" }),
  })
  .refine((body) => body.num_calls === undefined || body.peak_calls_per_minute === undefined, {
    message: "give num_calls or peak_calls_per_minute, not both",
  });

export type CreateExerciseRequest = z.output<typeof createExerciseSchema>;

export function parseCreateExercise(body: unknown): CreateExerciseRequest {
  const result = createExerciseSchema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue.path.join(".");
    throw invalidParameter("Invalid exercise", field ? `${field}: ${issue.message}` : issue.message);
  }
  return result.data;
}

export const exerciseParams = z.object({ id: z.string().meta({ description: "The exercise's id" }) });

export const exerciseSchema = z.object({
  id: z.string(),
  scenario: z.string(),
  shape: z.enum(SURGE_SHAPE_NAMES),
  duration_minutes: z.number().int(),
  planned_calls: z.number().int(),
  speed: z.number(),
  abandoned_share: z.number(),
  live_share: z.number(),
  seed: z.number().int(),
  state: z.enum(EXERCISE_STATES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  progress: z.object({
    released: z.number().int(),
    planned: z.number().int(),
    calls_per_minute: z.number().int().meta({ description: "Calls released in the last exercise minute" }),
    elapsed_seconds: z.number().meta({ description: "Exercise time elapsed" }),
    remaining_seconds: z.number().meta({ description: "Exercise time left" }),
    remaining_wall_seconds: z.number().meta({ description: "Wall-clock time left at the exercise's speed" }),
  }),
});
export type ExerciseView = z.infer<typeof exerciseSchema>;

export const exerciseListSchema = z.object({ exercises: z.array(exerciseSchema) });

const dispatchTimesSchema = z.object({
  severity: z.string(),
  dispatched: z.number().int(),
  p50_seconds: z.number().nullable(),
  p90_seconds: z.number().nullable(),
  max_seconds: z.number().nullable(),
  located: z.number().int().meta({ description: "Calls whose location the agent reported while the caller was on the line" }),
  location_p50_seconds: z.number().nullable().meta({ description: "Median seconds from the call to its first live report with a location (\"location known\")" }),
  location_p90_seconds: z.number().nullable(),
});

export const debriefSchema = z.object({
  exercise_id: z.string(),
  state: z.enum(EXERCISE_STATES),
  as_of: z.string().meta({ description: "End of the exercise, or now while it runs: undispatched calls wait until then" }),
  released: z.number().int(),
  abandoned: z.number().int(),
  dispatch_times: z.array(dispatchTimesSchema).meta({ description: "Seconds from the call to its first dispatched (or later) status" }),
  unit_intervals: unitIntervalsSchema.meta({
    description: "Turnout, travel and response of the units sent to the exercise's incidents while it ran (the intervals report's figures)",
  }),
  never_dispatched: z.number().int().meta({ description: "Answered calls never dispatched (nor failed)" }),
  longest_queue: z.number().int().meta({ description: "Most calls waiting for dispatch at one time" }),
  longest_wait_seconds: z.number().nullable(),
  calls_per_minute: z
    .array(z.object({ minute: z.number().int(), planned: z.number().int(), actual: z.number().int() }))
    .meta({ description: "Per exercise minute: calls due by the plan, calls released" }),
});
export type Debrief = z.infer<typeof debriefSchema>;
