import { z } from "zod";
import { documentedWriteAnswer, WITHOUT_READ } from "../access/write-answer";
import { type Endpoint, jsonBody } from "../contract/endpoint";
import { rateLimitPolicies } from "../contract/rate-limit-policies";
import {
  assignUnitsAnswerSchema, assignUnitsRequestSchema, createUnitSchema, parseAssignUnits, parseCreateUnit, parseUnitImport,
  parseUndoUnitStateRequest, parseUnitPosition, parseUnitStateRequest, parseUpdateUnit, recommendationQueryParameters, recommendationSchema, unitPositionRequestSchema, UNIT_IMPORT_MAX_BYTES, UNIT_IMPORT_MAX_ROWS, unitImportResultSchema, unitImportSchema,
  undoUnitStateRequestSchema, unitListSchema, unitSchema, unitStateRequestSchema, updateUnitSchema,
} from "./schema";
import { parseSetResponsePlan, planKeySchema, PLAN_MAX_COUNT, responsePlanListSchema, responsePlanSchema, setResponsePlanSchema } from "./plan-schema";

/**
 * Units: the roster, their states and their dispatch to incidents (docs/units.md).
 * Composed into the one registry by lib/http/endpoints.ts.
 */
const unitId = z.object({ id: z.string().meta({ description: "The unit's id" }) });
/** The answer of a unit's writes a dispatcher's key may make (state, position): one schema, named once. */
const unitWriteAnswer = documentedWriteAnswer("Unit", unitSchema);

export const unitEndpoints = {
  units: {
    path: "/api/units",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listUnits",
        permission: "read",
        summary: "The roster: every unit with its state, the incident it serves and its last position",
        responses: { 200: { description: "Units by call sign", body: { name: "UnitList", schema: unitListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
      POST: {
        operationId: "createUnit",
        permission: "admin",
        summary: "Add a unit to the roster (available, or out of service with in_service: false)",
        body: jsonBody({ name: "CreateUnit", schema: createUnitSchema }, parseCreateUnit, { maxBytes: 4096 }),
        responses: { 201: { description: "The unit", body: { name: "Unit", schema: unitSchema } } },
        errors: ["INVALID_PARAMETER", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  unitImport: {
    path: "/api/units/import",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    methods: {
      POST: {
        operationId: "importUnits",
        permission: "admin",
        summary: "Add the units of a CSV file to the roster, all or none",
        description:
          `Up to ${UNIT_IMPORT_MAX_ROWS} units. A line in error (a missing or unknown type, a bad coordinate, a call sign already on the ` +
          "roster or twice in the file) is answered 400 or 409 naming the line (`line`, the header being line 1), and nothing is imported.",
        body: jsonBody({ name: "UnitImport", schema: unitImportSchema }, parseUnitImport, { maxBytes: UNIT_IMPORT_MAX_BYTES }),
        responses: { 201: { description: "The units added", body: { name: "UnitImportResult", schema: unitImportResultSchema } } },
        errors: ["INVALID_PARAMETER", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  unit: {
    path: "/api/units/:id",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: unitId,
    methods: {
      GET: {
        operationId: "getUnit",
        permission: "read",
        summary: "One unit",
        responses: { 200: { description: "The unit", body: { name: "Unit", schema: unitSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      PATCH: {
        operationId: "updateUnit",
        permission: "admin",
        summary: "Correct a unit's roster entry, or take it out of (or back into) service",
        description: "in_service: false moves the unit to out_of_service and true back to available; either clears its assignment.",
        body: jsonBody({ name: "UpdateUnit", schema: updateUnitSchema }, parseUpdateUnit, { maxBytes: 4096 }),
        responses: { 200: { description: "The unit", body: { name: "Unit", schema: unitSchema } } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "CONFLICT", "DATABASE_ERROR"],
      },
    },
  },

  unitState: {
    path: "/api/units/:id/state",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: unitId,
    methods: {
      POST: {
        operationId: "changeUnitState",
        permission: "dispatch",
        summary: "A unit's state change (en route, on scene, available...), with its position when known",
        description:
          "Every change is kept with its time, who made it and the position given. A state of an assignment (dispatched to available on " +
          "scene) needs one: UNIT_NOT_ASSIGNED otherwise. available and out_of_service clear the unit: its assignment closes, and its " +
          "incident becomes resolved when that was its last unit and it is still dispatched.",
        body: jsonBody({ name: "UnitStateChange", schema: unitStateRequestSchema }, parseUnitStateRequest, { maxBytes: 4096 }),
        responses: { 200: { description: `The unit${WITHOUT_READ}`, body: unitWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "UNIT_NOT_ASSIGNED", "DATABASE_ERROR"],
      },
    },
  },

  unitUndoState: {
    path: "/api/units/:id/undo-state",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: unitId,
    methods: {
      POST: {
        operationId: "undoUnitState",
        permission: "dispatch",
        summary: "Revert exactly one state move of the unit (a report, a send, a clearing): its latest, made by the asker within 60 s, nothing moved it since",
        description:
          "The unit takes its previous state back; a send's assignment closes (and the incident's move to dispatched it made is reverted " +
          "when no other unit serves it), a clearing's assignment opens again (and the incident's close it made is reverted). Refused " +
          "with 409 UNDO_REFUSED, saying why, when the move is not the unit's latest, is another's, is older than 60 s, is an undo " +
          "itself, took the unit from another incident, or when its incident has moved since; nothing changes then.",
        body: jsonBody({ name: "UndoUnitStateRequest", schema: undoUnitStateRequestSchema }, parseUndoUnitStateRequest),
        responses: { 200: { description: `The unit after the undo${WITHOUT_READ}`, body: unitWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "UNDO_REFUSED", "DATABASE_ERROR"],
      },
    },
  },

  unitPosition: {
    path: "/api/units/:id/position",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: unitId,
    methods: {
      POST: {
        operationId: "reportUnitPosition",
        permission: "dispatch",
        summary: "A unit's position, from an AVL gateway or a mobile app (a scoped key with dispatch)",
        description:
          "The unit keeps its latest fix (one older than the kept one is ignored). A position older than UNIT_POSITION_STALE_SECONDS " +
          "is flagged `stale` and the recommendation passes over it, saying so.",
        body: jsonBody({ name: "UnitPosition", schema: unitPositionRequestSchema }, parseUnitPosition, { maxBytes: 1024 }),
        responses: { 200: { description: `The unit${WITHOUT_READ}`, body: unitWriteAnswer } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "DATABASE_ERROR"],
      },
    },
  },

  responsePlans: {
    path: "/api/response-plans",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    methods: {
      GET: {
        operationId: "listResponsePlans",
        permission: "read",
        summary: "The response plans: per emergency type and severity, the unit types and counts a recommendation fills",
        description: "Every pair, the centre's plan where an administrator set one, else the default with why (docs/units.md).",
        responses: { 200: { description: "The plans", body: { name: "ResponsePlanList", schema: responsePlanListSchema } } },
        errors: ["DATABASE_ERROR"],
      },
    },
  },

  responsePlan: {
    path: "/api/response-plans/:emergency_type/:severity",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.admin },
    params: planKeySchema,
    methods: {
      PUT: {
        operationId: "setResponsePlan",
        permission: "admin",
        summary: "Set the response plan of an emergency type and severity",
        description:
          `The unit types and counts (1 to ${PLAN_MAX_COUNT} each, each type once) in the order the recommendation fills them; [] sends none. ` +
          "Audited (response_plan.changed, with the plan it replaced), carried by the change feed, and read by the next recommendation.",
        body: jsonBody({ name: "SetResponsePlan", schema: setResponsePlanSchema }, parseSetResponsePlan, { maxBytes: 4096 }),
        responses: { 200: { description: "The plan", body: { name: "ResponsePlan", schema: responsePlanSchema } } },
        errors: ["INVALID_PARAMETER", "DATABASE_ERROR"],
      },
    },
  },

  incidentUnits: {
    path: "/api/incidents/:id/units",
    errorFormat: "calls",
    protection: { rateLimit: rateLimitPolicies.calls },
    params: z.object({ id: z.string().meta({ description: "The incident's id" }) }),
    methods: {
      GET: {
        operationId: "recommendUnits",
        permission: "read",
        query: recommendationQueryParameters,
        summary: "The incident's response plan filled with the fastest free units, then the other units that may be sent now, each with the reason and its travel time",
        description:
          "Each slot of the plan of the incident's type and severity gets the free unit of its type with the shortest travel time; a slot " +
          "no free unit fills says why (`unfilled_reason`). The unit is at its fresh position, else its home station. Travel time is on " +
          "the centre's roads where its centrelines are imported (`travel: route`), else the straight line at the type's speed " +
          "(UNIT_SPEEDS_KMH; `travel: straight_line`). Units with no usable point, or all when the incident has no location, come last " +
          "without a distance. Only units the incident may take: the centre's for a real incident, the exercise's simulated units for a training one.",
        responses: { 200: { description: "The ranking", body: { name: "UnitRecommendation", schema: recommendationSchema } } },
        errors: ["NOT_FOUND", "DATABASE_ERROR"],
      },
      POST: {
        operationId: "assignUnits",
        permission: ["dispatch", "train"],
        summary: "Send units to the incident",
        description:
          "Available units (and units available on scene elsewhere) are sent at once; any other is refused with UNIT_UNAVAILABLE " +
          "(409, `units`: each refused unit and why) and nothing changes, unless `confirm: true`: then its previous assignment closes. " +
          "Each unit becomes dispatched, and so does the incident when it is not further along. Training and real units never mix: " +
          "a real unit is never sent to a training incident (every call simulated), nor an exercise's simulated unit to any but " +
          "that exercise's incidents: 409 TRAINING_MIX naming each unit and why, confirmed or not, and nothing changes.",
        body: jsonBody({ name: "AssignUnits", schema: assignUnitsRequestSchema }, parseAssignUnits, { maxBytes: 8192 }),
        responses: { 201: { description: `The assignments made${WITHOUT_READ}`, body: documentedWriteAnswer("UnitAssignments", assignUnitsAnswerSchema) } },
        errors: ["INVALID_PARAMETER", "NOT_FOUND", "INVALID_TRANSITION", "UNIT_UNAVAILABLE", "TRAINING_MIX", "FORBIDDEN", "DATABASE_ERROR"],
      },
    },
  },
} satisfies Record<string, Endpoint>;
