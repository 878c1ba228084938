import type { RateLimitPolicy } from "../rate-limit";
import type { ErrorFormat } from "./error-format";

/**
 * Every API endpoint and its protection, in one table. `apiRoute(route, handler)` looks
 * its route up here for the error format, the rate limit and the API-key requirement; proxy.ts uses the paths and
 * methods to answer 405 in the endpoint's own error format.
 */
export type RouteName = "simulate" | "calls" | "call" | "recording" | "webhook" | "health" | "openapi" | "session";

export interface Endpoint {
  /** Path under the origin, `:id` for one path segment. */
  path: string;
  /** Methods the route file exports; HEAD (with GET) and OPTIONS are answered by Next itself. */
  methods: readonly string[];
  format: ErrorFormat;
  /** Requires API_KEY (when it is set), as a Bearer token or the dashboard's session cookie. */
  apiKey: boolean;
  rateLimit?: RateLimitPolicy;
}

const MINUTE = 60_000;

/** The listing, one call and its status changes share one budget per client. */
const callsPolicy: RateLimitPolicy = { bucket: "calls", limit: 1000, windowMs: MINUTE, whenStoreDown: "local" };

export const endpoints: Record<RouteName, Endpoint> = {
  simulate: {
    path: "/api/simulate",
    methods: ["POST"],
    format: "simulation",
    apiKey: true,
    // Each request may write 1000 calls: with the shared count gone, refusing is the safe answer.
    rateLimit: { bucket: "simulate", limit: 100, windowMs: MINUTE, whenStoreDown: "refuse" },
  },
  calls: { path: "/api/calls", methods: ["GET"], format: "calls", apiKey: true, rateLimit: callsPolicy },
  call: { path: "/api/calls/:id", methods: ["GET", "PATCH"], format: "calls", apiKey: true, rateLimit: callsPolicy },
  // An <audio> element fetches a recording in several range requests.
  recording: { path: "/api/calls/:id/recording", methods: ["GET"], format: "calls", apiKey: true, rateLimit: callsPolicy },
  webhook: {
    path: "/api/voiceagent-webhook",
    methods: ["POST"],
    format: "webhook",
    apiKey: false,
    // A refused delivery may be a lost emergency call: never refuse for want of a counter.
    rateLimit: { bucket: "webhook", limit: 1000, windowMs: MINUTE, whenStoreDown: "allow" },
  },
  // Probed by load balancers and monitors, often from one address: not limited.
  health: { path: "/api/health", methods: ["GET"], format: "calls", apiKey: false },
  openapi: { path: "/api/openapi.json", methods: ["GET"], format: "calls", apiKey: false },
  session: {
    path: "/api/session",
    methods: ["POST", "DELETE"],
    format: "calls",
    apiKey: false,
    // The only place a key can be guessed without a valid one: few tries per client.
    rateLimit: { bucket: "session", limit: 10, windowMs: MINUTE, whenStoreDown: "local" },
  },
};

/** Methods a client may use on the endpoint, as in an `Allow` header. */
export function allowedMethods(endpoint: Endpoint): string[] {
  const methods = new Set([...endpoint.methods, "OPTIONS"]);
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].sort();
}

/** Each endpoint with its path as a pattern, compiled once rather than on every /api request. */
const pathPatterns = Object.values(endpoints).map((endpoint) => ({
  endpoint,
  pattern: new RegExp(`^${endpoint.path.replace(/[.]/g, "\\.").replace(/:id/g, "[^/]+")}$`),
}));

/** The endpoint a path belongs to, if it is one of the table's. */
export function endpointForPath(pathname: string): Endpoint | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return pathPatterns.find(({ pattern }) => pattern.test(path))?.endpoint;
}
