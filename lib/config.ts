import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./vocabulary";

/**
 * Every environment variable the service reads, validated once. A bad value stops start-up with
 * one line naming the variable, instead of failing later in the middle of a request.
 */
const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = optionalString.pipe(z.url().optional());

const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const postgresUrl = optionalString.refine(
  (value) => value === undefined || /^postgres(ql)?:\/\/[^\s]+$/.test(value),
  "must be a postgres:// or postgresql:// URL",
);

/** D and T of incident grouping (docs/incidents.md), for one emergency type or as the default. */
const groupingRule = z.strictObject({
  // At most 1000 m (docs/incidents.md): a wider circle would fold a neighbourhood's separate emergencies into one.
  radius_m: z.number().min(1).max(1000).optional(),
  window_min: z.number().min(1).max(24 * 60).optional(),
});

/** INCIDENT_GROUPING: JSON, e.g. {"default":{"radius_m":250,"window_min":60},"structure_fire":{"radius_m":400}}. */
const incidentGrouping = optionalString.transform((value, context) => {
  if (value === undefined) return {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    context.addIssue({ code: "custom", message: "must be JSON" });
    return z.NEVER;
  }
}).pipe(z.record(z.string(), groupingRule));

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** PostgreSQL server. Unset: the embedded PGlite database under DATA_DIR. */
  DATABASE_URL: postgresUrl,
  /** Where the embedded database and the local object store live. */
  DATA_DIR: z.string().trim().min(1).default("./data"),
  /** Local object-store directory (used when BLOB_READ_WRITE_TOKEN is unset). */
  BLOB_DIR: optionalString,
  BLOB_READ_WRITE_TOKEN: optionalString.refine(
    (value) => value === undefined || value.startsWith("vercel_blob_rw_"),
    "must start with vercel_blob_rw_",
  ),
  VOICEAGENT_WEBHOOK_SECRET: optionalString,
  VOICEAGENT_REQUIRE_SIGNATURE: booleanFlag,
  /**
   * POST /api/voiceagent-webhook/vapi: the secret of the Vapi server URL's credential (a Bearer
   * token, the legacy `server.secret`, or an HMAC credential's key). Unset: every request is refused.
   */
  VAPI_WEBHOOK_SECRET: optionalString,
  /** POST /api/voiceagent-webhook/retell: the Retell API key with the webhook badge, which signs its webhooks. Unset: every request is refused. */
  RETELL_API_KEY: optionalString,
  /**
   * The live tools' ElevenLabs endpoints (POST /api/live-calls/elevenlabs/{tool}): the value of the
   * `x-mayday-tool-secret` header the agent's server tools send (docs/webhook.md, "Live calls"). Unset: every request is refused.
   */
  ELEVENLABS_TOOL_SECRET: optionalString,
  /**
   * Hosts a Vapi live control URL may be on (docs/security.md, "Live control"): each a domain,
   * itself or any name under it, comma-separated. A control URL elsewhere is never called.
   */
  VAPI_CONTROL_HOSTS: z
    .string()
    .default("vapi.ai")
    .transform((value) => value.split(",").map((host) => host.trim().toLowerCase().replace(/^\.+/, "")).filter((host) => host !== ""))
    .pipe(z.array(z.string()).min(1, "names at least one host")),
  /** Allow Vapi control URLs on private, loopback and link-local addresses (tests with a stand-in). Off: refused before any connection. */
  VAPI_CONTROL_ALLOW_PRIVATE_HOSTS: booleanFlag,
  /** Sent as `Authorization: Bearer` to Vapi's control URL: the Vapi public key, needed when the assistant's `monitorPlan.controlAuthenticationEnabled` is on. */
  VAPI_CONTROL_KEY: optionalString,
  /** Retell's API, for a dispatcher's instruction on a live call (update-live-call, with RETELL_API_KEY). */
  RETELL_API_URL: z.url().default("https://api.retellai.com"),
  /** One push to a platform's live control (an instruction, a transfer) is cut off after this long. */
  LIVE_CONTROL_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3_000),
  /** A live call with no event for this long, and no post-call event yet, is marked ended (lib/on-the-line). */
  LIVE_CALL_TIMEOUT_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /** An administrator's Bearer key for scripts and benchmarks, working before any account exists. */
  API_KEY: optionalString,
  /** Signs session cookies; unset: one made once and kept in the database (docs/security.md). */
  AUTH_SECRET: optionalString.refine((value) => value === undefined || value.length >= 32, "must be at least 32 characters"),
  /** The dashboard's public URL (e.g. https://dispatch.example.org), for sign-in with an identity provider. */
  AUTH_URL: optionalUrl,
  /** Sign-in with the centre's OpenID Connect provider (Entra ID, Okta, Keycloak): its issuer URL. */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  /** The provider's name on the sign-in button. */
  OIDC_NAME: optionalString,
  /** Create this administrator at start when the database has no one yet (with ADMIN_PASSWORD). */
  ADMIN_EMAIL: optionalString.refine((value) => value === undefined || /^[^\s@]+@[^\s@]+$/.test(value), "must be an email address"),
  ADMIN_PASSWORD: optionalString,
  /** Sign-in attempts one account may make per lock-out window, right or wrong (docs/security.md). */
  AUTH_LOCKOUT_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(10),
  AUTH_LOCKOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Hosted model for simulation summaries (OpenAI-compatible endpoint or Bedrock). */
  AI_PROVIDER: z.enum(["openai-compatible", "bedrock", "none", ""]).optional(),
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(25_000).default(8_000),
  AI_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  AWS_REGION: optionalString,
  /** Hosted geocoder; unset: the embedded gazetteer only. GEOCODER_KIND: its API (docs/geocoding.md). */
  GEOCODER_URL: optionalUrl,
  GEOCODER_KIND: z.enum(["nominatim", "pelias"]).default("nominatim"),
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).max(25_000).default(5_000),
  /**
   * A training installation's switch: spoken addresses of the scenario areas resolve on the
   * scenario street set, where the simulator put them (docs/simulation.md). Off: real calls are
   * never placed on synthetic streets.
   */
  GEOCODER_SCENARIO_STREETS: booleanFlag,
  /** The largest GIS file the administrator's page takes (POST /api/gis); the command line has no limit. */
  GIS_IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).default(512 * 1024 * 1024),
  /** Rate-limit backends: Upstash in production, a plain Redis, else per process. */
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  REDIS_URL: optionalString.refine(
    (value) => value === undefined || /^rediss?:\/\/\S+$/.test(value),
    "must be a redis:// or rediss:// URL",
  ),
  /**
   * Upper bound of every Redis or Upstash call (rate limits, listing cache); past it the call
   * counts as failed and the caller takes its fallback.
   */
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(5).max(10_000).default(50),
  /** After a few failures in a row Redis is left alone this long, then probed in the background. */
  REDIS_BREAKER_MS: z.coerce.number().int().min(100).max(60_000).default(1_000),
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  REDIS_KEY_PREFIX: z.string().trim().default("mayday:"),
  /** How many reverse proxies in front of the app may set x-forwarded-for. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  NEXT_PUBLIC_MAP_TILE_URL: z
    .string()
    .trim()
    .default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
  /**
   * The centre's own street map: a PMTiles archive (Protomaps' basemap layers), an http(s) URL or
   * a path on this site ("/maps/county.pmtiles", a file in public/). Set: drawn instead of the
   * tiles (docs/dashboard.md, "Tiles").
   */
  MAP_PMTILES_URL: optionalString.refine(
    (value) => value === undefined || /^\/[^/]/.test(value) || /^https?:\/\/[^\s/]+\/\S*$/.test(value),
    "must be an http(s) URL or a path on this site starting with /",
  ),
  /**
   * How often each instance looks for payloads deferred while the database was down (by any
   * instance); one that deferred payloads itself retries every second until they are recorded.
   */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /** Statement timeout for every database query, so requests answer inside 30 s. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(25_000).default(10_000),
  /** GET /api/health re-runs its readiness checks at most this often; 0: on every request. */
  HEALTH_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).max(300_000).default(5_000),
  /** The live map also shows calls resolved or failed within this many hours (faded). */
  LIVE_MAP_CLOSED_HOURS: z.coerce.number().int().min(0).max(168).default(6),
  /** Minutes an incident may wait undispatched before its reminder alerts, per severity (docs/dashboard.md, "Alerts"). */
  ALERT_REMIND_CRITICAL_MIN: z.coerce.number().int().min(1).max(1440).default(2),
  ALERT_REMIND_HIGH_MIN: z.coerce.number().int().min(1).max(1440).default(5),
  ALERT_REMIND_MODERATE_MIN: z.coerce.number().int().min(1).max(1440).default(15),
  /** Incident grouping's distance and time window, per emergency type (docs/incidents.md). */
  INCIDENT_GROUPING: incidentGrouping,
  /** false: calls are stored without being grouped, each in an incident of its own (docs/incidents.md). */
  INCIDENT_GROUPING_ENABLED: booleanFlag.default(true),
  /** Calls waiting to be grouped are also looked for on this timer (another instance may have stopped). */
  INCIDENT_GROUPING_SWEEP_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** The change feed is also read on this timer, in case a notification is lost. */
  LIVE_FEED_SAFETY_READ_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** A unit's position older than this is stale: flagged, and not used to recommend it (docs/units.md). */
  UNIT_POSITION_STALE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  /**
   * Speeds per unit type for the recommendation's approximate travel time, km/h, e.g.
   * `ambulance=70,patrol=80`; types not named keep lib/units/states.ts's defaults.
   */
  UNIT_SPEEDS_KMH: z
    .string()
    .regex(/^\s*(?:[a-z]+\s*=\s*\d{1,3}(?:\.\d+)?\s*)(?:,\s*[a-z]+\s*=\s*\d{1,3}(?:\.\d+)?\s*)*$/, "type=km/h pairs separated by commas")
    .optional(),
  /**
   * The intervals report's targets per unit (docs/reports.md, "Intervals per unit"): NFPA 1710's
   * turnout (dispatch to en route) for EMS units and for the others, and travel (en route to on
   * scene); a unit's total response target is its turnout's plus travel's.
   */
  UNIT_TURNOUT_EMS_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  UNIT_TURNOUT_FIRE_SECONDS: z.coerce.number().int().min(1).max(3600).default(80),
  UNIT_TRAVEL_SECONDS: z.coerce.number().int().min(1).max(7200).default(240),
  /** The exercise scheduler releases due calls this often; 0: no scheduler in this process. */
  EXERCISE_TICK_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /**
   * The centre's domain name: NENA's identifiers of its incidents and calls end in it, and it is
   * the EIDO's agency and issuing element (docs/integrations.md, "EIDO").
   */
  CENTRE_DOMAIN: optionalString
    .pipe(z.string().toLowerCase().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, "must be a domain name, e.g. psap.example.org").optional())
    .transform((value) => value ?? "mayday.invalid"),
  /** false: this process runs no outbound delivery worker (docs/integrations.md); another instance serves. */
  SUBSCRIPTION_WORKER: booleanFlag.default(true),
  /**
   * Allow subscription targets on private, loopback and link-local addresses (a receiver on the
   * centre's own network). Off: refused at creation and at every delivery (docs/security.md).
   */
  SUBSCRIPTION_ALLOW_PRIVATE_TARGETS: booleanFlag,
  /** A delivery's whole request (connect, send, answer) is cut off after this long. */
  SUBSCRIPTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Bytes of a receiver's answer read at most; the connection is closed past it. */
  SUBSCRIPTION_RESPONSE_LIMIT_BYTES: z.coerce.number().int().min(0).max(1_048_576).default(65_536),
  /** Days the delivery log keeps an attempt (GET /api/subscriptions/{id}/deliveries). */
  SUBSCRIPTION_DELIVERY_LOG_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /**
   * false: this process fetches no Vapi or Retell recording into object storage (docs/webhook.md,
   * "Recordings"); the links are still queued, for another instance's archiver.
   */
  RECORDING_ARCHIVER: booleanFlag.default(true),
  /**
   * Allow recording links on private, loopback and link-local addresses. Off: such a link is
   * refused before any connection, and the call keeps only the platform's link (docs/security.md).
   */
  RECORDING_ALLOW_PRIVATE_SOURCES: booleanFlag,
  /** A recording larger than this is not archived: reading stops here (default 200 MiB). */
  RECORDING_MAX_BYTES: z.coerce.number().int().min(1).max(2 ** 31).default(200 * 1024 * 1024),
  /** One fetch of a recording (connect, redirects, the whole body into storage) is cut off after this long. */
  RECORDING_FETCH_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(120_000),
}).refine((env) => env.OIDC_ISSUER === undefined || (env.OIDC_CLIENT_ID !== undefined && env.OIDC_CLIENT_SECRET !== undefined && env.AUTH_URL !== undefined), {
  // The provider sends people back to AUTH_URL, and knows Mayday by its client id and secret.
  message: "needs OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and AUTH_URL",
  path: ["OIDC_ISSUER"],
}).refine((env) => (env.ADMIN_EMAIL === undefined) === (env.ADMIN_PASSWORD === undefined), {
  message: "and ADMIN_EMAIL go together",
  path: ["ADMIN_PASSWORD"],
}).refine((env) => env.ADMIN_PASSWORD === undefined || env.ADMIN_PASSWORD.length >= MIN_PASSWORD_LENGTH, {
  message: `must be at least ${MIN_PASSWORD_LENGTH} characters`,
  path: ["ADMIN_PASSWORD"],
}).refine((env) => !env.VOICEAGENT_REQUIRE_SIGNATURE || env.VOICEAGENT_WEBHOOK_SECRET !== undefined, {
  // Requiring signatures that cannot be checked would turn every call away.
  message: "is true but VOICEAGENT_WEBHOOK_SECRET is not set",
  path: ["VOICEAGENT_REQUIRE_SIGNATURE"],
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = issue.path.join(".");
    throw new ConfigError(`Invalid environment variable ${variable}: ${issue.message}`);
  }
  return result.data;
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Tests change the environment between cases; production reads it once. */
export function resetConfigForTests(): void {
  cached = undefined;
}

/** Settings that work but leave something open: logged once at start-up (instrumentation.ts). */
export function configurationWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.VOICEAGENT_WEBHOOK_SECRET !== undefined && !config.VOICEAGENT_REQUIRE_SIGNATURE) {
    warnings.push(
      "VOICEAGENT_WEBHOOK_SECRET is set but VOICEAGENT_REQUIRE_SIGNATURE is not: unsigned webhook posts are still " +
        "accepted and may create calls (marked unverified; they never change one). Set VOICEAGENT_REQUIRE_SIGNATURE=true to refuse them.",
    );
  }
  return warnings;
}

/** For server start-up: a bad environment ends the process with one line naming the variable. */
export function exitOnInvalidConfig(): void {
  try {
    getConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
