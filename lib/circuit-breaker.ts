import { log } from "./log";

/**
 * Bounds every call to an optional dependency (Redis, Upstash) in time, and stops calling it once it
 * failed `failureThreshold` times in a row: the breaker opens, callers get CircuitOpenError at once
 * (and take their fallback), and a probe runs in the background every `openMs` until the dependency
 * answers, which closes the breaker. No request ever waits on a dependency known to be down or hung.
 */
export interface CircuitBreakerOptions {
  name: string;
  /** Upper bound of one call, in milliseconds. */
  timeoutMs: number;
  /** Time between background probes while open. */
  openMs: number;
  /** Consecutive failures (errors or timeouts) that open the breaker. */
  failureThreshold: number;
  /** A cheap call that succeeds only when the dependency is usable again (e.g. PING). */
  probe: () => Promise<unknown>;
}

export type CircuitState = "closed" | "open";

export interface CircuitStatus {
  name: string;
  state: CircuitState;
  /** When the breaker last opened or closed (ISO time), absent until it first opens. */
  since?: string;
  lastError?: string;
}

export class CircuitOpenError extends Error {
  constructor(name: string) {
    super(`${name} is unavailable (circuit open)`);
    this.name = "CircuitOpenError";
  }
}

export class CallTimeoutError extends Error {
  constructor(name: string, timeoutMs: number) {
    super(`${name} did not answer within ${timeoutMs} ms`);
    this.name = "CallTimeoutError";
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0];

export class CircuitBreaker {
  private state: CircuitState = "closed";
  private failures = 0;
  private since: Date | undefined;
  private lastError: string | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private readonly closeListeners = new Set<() => void>();

  constructor(private readonly options: CircuitBreakerOptions) {}

  get isOpen(): boolean {
    return this.state === "open";
  }

  status(): CircuitStatus {
    return {
      name: this.options.name,
      state: this.state,
      ...(this.since ? { since: this.since.toISOString() } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /** Runs `work` within the time bound; throws CircuitOpenError without calling it while open. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.state === "open") throw new CircuitOpenError(this.options.name);
    try {
      const result = await this.bounded(work);
      this.failures = 0;
      return result;
    } catch (error) {
      this.recordFailure(error);
      throw error;
    }
  }

  /** Called once each time the breaker closes (the dependency is back). */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Stops the background probe (tests, shutdown). */
  dispose(): void {
    clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CallTimeoutError(this.options.name, this.options.timeoutMs)), this.options.timeoutMs);
    });
    try {
      return await Promise.race([work(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private recordFailure(error: unknown): void {
    this.lastError = reason(error);
    this.failures += 1;
    if (this.state === "closed" && this.failures >= this.options.failureThreshold) this.open();
  }

  private open(): void {
    this.state = "open";
    this.since = new Date();
    log.warn({ dependency: this.options.name, err: this.lastError }, "circuit opened: using fallbacks");
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => void this.probe(), this.options.openMs);
    // A pending probe must not keep a finished process (a test, a script) alive.
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    try {
      await this.bounded(this.options.probe);
    } catch (error) {
      this.lastError = reason(error);
      this.scheduleProbe();
      return;
    }
    this.state = "closed";
    this.failures = 0;
    this.since = new Date();
    log.info({ dependency: this.options.name }, "circuit closed: dependency answers again");
    for (const listener of this.closeListeners) listener();
  }
}
