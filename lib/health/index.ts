import { z } from "zod";
import { getConfig } from "../config";
import { log } from "../log";
import type { CheckOutcome, HealthCheck } from "./check";
import { databaseCheck, migrationsCheck, storageCheck } from "./checks";

/**
 * Readiness of the service, as GET /api/health reports it. The checks run at most once every
 * HEALTH_CHECK_INTERVAL_MS, whatever the request rate: every request in between (and every request
 * while a run is under way) gets the latest run's result. A new check is one more entry in
 * `checks`; its outcome schema joins the report's schema by itself.
 */
const checks = {
  database: databaseCheck,
  migrations: migrationsCheck,
  storage: storageCheck,
} satisfies Record<string, HealthCheck>;

type Checks = typeof checks;
type ChecksReport = { [Name in keyof Checks]: z.infer<Checks[Name]["outcome"]> };

/** A check that has not answered by then has failed: a probe must get its answer in time. */
const CHECK_TIMEOUT_MS = 5_000;

const checksSchema = z.object(
  Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, check.outcome])) as {
    [Name in keyof Checks]: Checks[Name]["outcome"];
  },
);

/** The body of GET /api/health (also the source of its OpenAPI schema). */
export const healthReportSchema = z.object({
  status: z.enum(["ok", "unavailable"]).describe("ok: every required check passed at checkedAt"),
  checkedAt: z.string().describe("When the checks last ran (ISO 8601); they run at most every HEALTH_CHECK_INTERVAL_MS"),
  checks: checksSchema
    .optional()
    .describe("Each check's outcome: only for a caller with the API key (Bearer or session cookie), or when API_KEY is unset"),
});

export type HealthReport = z.infer<typeof healthReportSchema>;

interface Readiness {
  ready: boolean;
  checkedAt: string;
  checks: ChecksReport;
}

/**
 * A code such as ECONNREFUSED, ENOTDIR, P1001 or 3D000, else the error's class name; never its
 * message, which may name a host, a path or a database.
 */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^\w{1,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : "Error";
}

async function runCheck(name: string, check: HealthCheck): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`), { code: "TIMEOUT" })), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check.run(), timeout]);
  } catch (error) {
    // The whole error for operators, in the log; the answer carries the code only.
    log.warn({ check: name, err: error }, "health check failed");
    return { ok: false, error: errorCode(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function runChecks(): Promise<Readiness> {
  const entries = Object.entries(checks) as [keyof Checks, HealthCheck][];
  const outcomes = await Promise.all(entries.map(([name, check]) => runCheck(name, check)));
  const report = Object.fromEntries(entries.map(([name], index) => [name, outcomes[index]])) as ChecksReport;
  return {
    ready: entries.every(([, check], index) => !check.required || outcomes[index].ok),
    checkedAt: new Date().toISOString(),
    checks: report,
  };
}

let latest: { startedAt: number; readiness: Promise<Readiness> } | undefined;

function readiness(): Promise<Readiness> {
  const now = Date.now();
  if (!latest || now - latest.startedAt >= getConfig().HEALTH_CHECK_INTERVAL_MS) {
    latest = { startedAt: now, readiness: runChecks() };
  }
  return latest.readiness;
}

/** The report, with each check's outcome only for a caller who may see it. */
export async function healthReport(withDetails: boolean): Promise<HealthReport> {
  const { ready, checkedAt, checks: outcomes } = await readiness();
  return { status: ready ? "ok" : "unavailable", checkedAt, ...(withDetails ? { checks: outcomes } : {}) };
}

/** Tests change what the checks see (store, database, config) and need a fresh run. */
export function resetHealthForTests(): void {
  latest = undefined;
}
