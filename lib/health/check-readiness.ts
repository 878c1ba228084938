import { getConfig } from "../config";
import { driverErrorCause } from "../db/driver-error";
import { log } from "../log";
import { checks } from "./checks";
import type { CheckName, CheckOutcome, HealthReport } from "./report";

/** A check that has not answered by then has failed: a probe must get its answer in time. */
const CHECK_TIMEOUT_MS = 5_000;

type ChecksReport = { [Name in CheckName]: CheckOutcome<Name> };

interface Readiness {
  ready: boolean;
  checkedAt: string;
  checks: ChecksReport;
}

/**
 * A code, never the message, which may name a host, a path or a database: the driver adapter's
 * kind behind a Prisma error (DatabaseNotReachable, DatabaseDoesNotExist, ...), else the error's
 * own code (ENOTDIR, TIMEOUT, ...), else its class name.
 */
function errorCode(error: unknown): string {
  for (const code of [driverErrorCause(error)?.kind, (error as { code?: unknown } | null)?.code]) {
    if (typeof code === "string" && /^\w{1,40}$/.test(code)) return code;
  }
  return error instanceof Error ? error.name : "Error";
}

async function runCheck(name: CheckName): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer in ${CHECK_TIMEOUT_MS} ms`), { code: "TIMEOUT" })), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([checks[name].run(), timeout]);
  } catch (error) {
    // The whole error for operators, in the log; the answer carries the code only.
    log.warn({ check: name, err: error }, "health check failed");
    return { ok: false, error: errorCode(error) };
  } finally {
    clearTimeout(timer);
  }
}

async function runChecks(): Promise<Readiness> {
  const names = Object.keys(checks) as CheckName[];
  const outcomes = await Promise.all(names.map(runCheck));
  const report = Object.fromEntries(names.map((name, index) => [name, outcomes[index]])) as ChecksReport;
  return {
    ready: names.every((name, index) => !checks[name].required || outcomes[index].ok),
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

/**
 * Readiness of the service, as GET /api/health reports it; each check's outcome only for a caller
 * who may see it. The checks (lib/health/checks.ts) run at most once every
 * HEALTH_CHECK_INTERVAL_MS, whatever the request rate: every request in between (and every request
 * while a run is under way) gets the latest run's result.
 */
export async function healthReport(probe: "ready" | "live", withDetails: boolean): Promise<HealthReport> {
  // The process answers: that is all a liveness probe asks.
  if (probe === "live") return { status: "ok" };
  const { ready, checkedAt, checks: outcomes } = await readiness();
  return { status: ready ? "ok" : "unavailable", checkedAt, ...(withDetails ? { checks: outcomes } : {}) };
}

/** Tests change what the checks see (store, database, config) and need a fresh run. */
export function resetHealthForTests(): void {
  latest = undefined;
}
