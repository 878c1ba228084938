import { z } from "zod";
import { accessEndpoints } from "../access/endpoints";
import { acknowledgementEndpoints } from "../acknowledgements/endpoints";
import { auditEndpoints } from "../audit/endpoints";
import { callTakingEndpoints } from "../call-taking/endpoints";
import { callEndpoints } from "../calls/endpoints";
import type { Endpoint, Method } from "../contract/endpoint";
import { eidoEndpoints } from "../eido/endpoints";
import { exerciseEndpoints } from "../exercises/endpoints";
import { geocodingEndpoints } from "../geocoding/endpoints";
import { healthEndpoints } from "../health/endpoints";
import { incidentEndpoints } from "../incidents/endpoints";
import { intakeEndpoints } from "../intake/endpoints";
import { onTheLineEndpoints } from "../on-the-line/endpoints";
import { boardEndpoints } from "../board/endpoints";
import { noteEndpoints } from "../notes/endpoints";
import { reportEndpoints } from "../reports/endpoints";
import { simulationEndpoints } from "../simulation/endpoints";
import { subscriptionEndpoints } from "../subscriptions/endpoints";
import { unitEndpoints } from "../units/endpoints";

/**
 * Every API endpoint's contract, one entry each: path, protection, and per method the request
 * schemas, answers and error codes. Each domain declares its own in its endpoints.ts (the types in
 * lib/contract); this is their composition, the one registry: apiRoute validates from it, proxy.ts
 * answers 405 from it and lib/http/openapi.ts generates the OpenAPI document from it, paths in this
 * order. How to add one: docs/endpoints.md.
 */
export const endpoints = {
  ...callEndpoints,
  ...callTakingEndpoints,
  ...boardEndpoints,
  ...geocodingEndpoints,
  ...incidentEndpoints,
  ...acknowledgementEndpoints,
  ...eidoEndpoints,
  ...noteEndpoints,
  ...unitEndpoints,
  ...simulationEndpoints,
  ...intakeEndpoints,
  ...onTheLineEndpoints,
  ...exerciseEndpoints,
  ...reportEndpoints,
  ...subscriptionEndpoints,
  ...healthEndpoints,
  ...accessEndpoints,
  ...auditEndpoints,

  // The HTTP layer's own: the document built from this registry.
  openapi: {
    path: "/api/openapi.json",
    errorFormat: "calls",
    protection: {},
    methods: {
      GET: {
        operationId: "openapi",
        permission: "public",
        summary: "This document",
        description: "Built once per process; answers 304 to an If-None-Match naming its ETag.",
        responses: {
          200: { description: "OpenAPI 3.1 document", body: { schema: z.record(z.string(), z.unknown()) } },
          304: { description: "Unchanged since the ETag given in If-None-Match" },
        },
        errors: [],
      },
    },
  },
} satisfies Record<string, Endpoint>;

export type RouteName = keyof typeof endpoints;

/** Methods declared for the endpoint. */
export function declaredMethods(endpoint: Endpoint): Method[] {
  return Object.keys(endpoint.methods) as Method[];
}

/** Methods a client may use on the endpoint, as in an `Allow` header. */
export function allowedMethods(endpoint: Endpoint): string[] {
  const methods = new Set<string>([...declaredMethods(endpoint), "OPTIONS"]);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/**
 * Each endpoint with its path as a pattern, compiled once rather than on every /api request.
 * Fixed paths first, as Next routes them: /api/calls/export.csv is not the call `export.csv`.
 */
const pathPatterns = (Object.values(endpoints) as Endpoint[])
  .map((endpoint) => ({
    endpoint,
    parameters: endpoint.path.split(":").length - 1,
    pattern: new RegExp(`^${endpoint.path.replace(/[.]/g, "\\.").replace(/:\w+/g, "[^/]+")}$`),
  }))
  .sort((a, b) => a.parameters - b.parameters);

/** The endpoint a path belongs to, if it is one of the table's. */
export function endpointForPath(pathname: string): Endpoint | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return pathPatterns.find(({ pattern }) => pattern.test(path))?.endpoint;
}
