import { z } from "zod";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  createExerciseSchema, debriefSchema, type ExerciseAction, exerciseListSchema, exerciseParams, exerciseSchema,
  parseCreateExercise,
} from "./schema";

const exerciseProtection = { rateLimit: rateLimitPolicies.exercises } as const;
const exerciseResponse = { name: "Exercise", schema: exerciseSchema };

/** POST /api/exercises/{id}/{action}: one endpoint per control, one verb per file in lib/exercises. */
const exerciseControl = (action: ExerciseAction, summary: string) =>
  ({
    path: `/api/exercises/:id/${action}`,
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      POST: {
        operationId: `${action}Exercise`,
        permission: "train",
        summary,
        responses: { 200: { description: "The exercise after the change", body: exerciseResponse } },
        errors: ["NOT_FOUND", "INVALID_TRANSITION", "DATABASE_ERROR"],
      },
    },
  }) satisfies Endpoint;

const exerciseControls = {
  start: "Start a planned exercise: its calls begin to fall due",
  pause: "Pause a running exercise: exercise time stops, no call falls due",
  resume: "Resume a paused exercise where it was paused",
  stop: "Stop a running or paused exercise for good: calls not yet released never are",
} satisfies Record<ExerciseAction, string>;

/**
 * Training exercises' endpoints (docs/exercises.md): plan, list, progress, one control per verb, the debrief.
 * Composed into the one registry by lib/http/endpoints.ts.
 */
export const exerciseEndpoints = {
  exercises: {
    path: "/api/exercises",
    errorFormat: "calls",
    protection: exerciseProtection,
    methods: {
      POST: {
        operationId: "createExercise",
        permission: "train",
        summary: "Plan a training exercise (and start it when asked)",
        description:
          "Its calls are planned at once, deterministic per seed, and released by the server's scheduler as they fall due " +
          "(docs/exercises.md). Exercise calls are simulated calls carrying the exercise id. With live_share, that share of the " +
          "answered calls is released live: on the line with its first transcript turns, located 15-60 exercise seconds in as " +
          "the agent's report_emergency would, more turns, then the post-call analysis at its duration, off the line after; " +
          "calls still talking when the exercise ends or is stopped end with it.",
        body: jsonBody({ name: "ExerciseRequest", schema: createExerciseSchema }, parseCreateExercise),
        responses: { 201: { description: "The exercise as planned (or started)", body: exerciseResponse } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
      GET: {
        operationId: "listExercises",
        permission: "read",
        summary: "The latest 50 exercises, newest first, with their progress",
        responses: { 200: { description: "Exercises", body: { name: "ExerciseList", schema: exerciseListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  exercise: {
    path: "/api/exercises/:id",
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      GET: {
        operationId: "getExercise",
        permission: "read",
        summary: "One exercise and its progress: released of planned, calls per minute, elapsed and remaining time",
        responses: { 200: { description: "The exercise", body: exerciseResponse } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  exerciseStart: exerciseControl("start", exerciseControls.start),

  exercisePause: exerciseControl("pause", exerciseControls.pause),

  exerciseResume: exerciseControl("resume", exerciseControls.resume),

  exerciseStop: exerciseControl("stop", exerciseControls.stop),

  exerciseDebrief: {
    path: "/api/exercises/:id/debrief",
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      GET: {
        operationId: "getExerciseDebrief",
        permission: "read",
        summary: "How the exercise went: dispatch times per severity, undispatched calls, queue, calls per minute against plan",
        responses: { 200: { description: "The debrief", body: { name: "ExerciseDebrief", schema: debriefSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  exerciseDebriefCsv: {
    path: "/api/exercises/:id/debrief.csv",
    errorFormat: "calls",
    protection: exerciseProtection,
    params: exerciseParams,
    methods: {
      GET: {
        operationId: "getExerciseDebriefCsv",
        permission: "read",
        summary: "The debrief as CSV, one figure per line: metric, severity, minute, value",
        responses: { 200: { description: "The debrief", contentType: "text/csv", body: { schema: z.string() } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
