import { getConfig } from "../config";
import { CHANNELS, listen } from "../db/notifications";
import { DomainError } from "../domain-error";
import { log } from "../log";
import { processPart } from "../process-parts";
import { accessVersion } from "./access-cache";
import { authenticate } from "./authenticate";
import { type Requirement, satisfies } from "./roles";

/**
 * What keeps a long-lived answer (the change stream) within its credential's rights after the
 * request that opened it (docs/security.md, "Open streams"). Every instance learns that access may
 * have changed from the access_changed trigger's notification at commit, and from a read of
 * access_version every LIVE_FEED_SAFETY_READ_MS should one be lost: one LISTEN and one read per
 * interval per process, however many streams are open, and nothing per event. Only then, and when
 * its session or key expires, does each open stream check its credential again.
 */

interface Watch {
  subscribers: Set<() => void>;
  stop?: () => Promise<void>;
}

function watch(): Watch {
  return processPart<Watch>(
    "access watch",
    () => ({ subscribers: new Set() }),
    async (state) => {
      state.subscribers.clear();
      const stop = state.stop;
      state.stop = undefined;
      await stop?.();
    },
  );
}

const tellAll = () => {
  for (const subscriber of [...watch().subscribers]) subscriber();
};

/** Calls `onChange` whenever access_version may have moved, on any instance; answers the unsubscribe. */
function onAccessChange(onChange: () => void): () => void {
  const state = watch();
  state.subscribers.add(onChange);
  if (!state.stop) {
    let seen: bigint | undefined;
    const read = async () => {
      const version = await accessVersion();
      if (seen !== undefined && version !== seen) tellAll();
      seen = version;
    };
    const unlisten = listen(CHANNELS.access, tellAll);
    const timer = setInterval(() => void read().catch(() => undefined), getConfig().LIVE_FEED_SAFETY_READ_MS);
    timer.unref();
    void read().catch(() => undefined);
    state.stop = async () => {
      clearInterval(timer);
      await unlisten();
    };
  }
  return () => {
    state.subscribers.delete(onChange);
    if (state.subscribers.size > 0 || !state.stop) return;
    void state.stop();
    state.stop = undefined;
  };
}

/** setTimeout's longest delay (about 24.8 days); a later expiry is armed again when it fires. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * A signal that aborts with `until`, or once the credential in `headers` no longer satisfies
 * `requirement`: a person removed or lowered, a session ended or expired, a key revoked or expired.
 * While the database cannot answer, the credential keeps what it had (nothing can change it then).
 */
export function whileAllowed(headers: Headers, requirement: Requirement, until: AbortSignal): AbortSignal {
  const lost = new AbortController();
  let expiry: NodeJS.Timeout | undefined;
  let checking = false;
  let checkAgain = false;

  const end = () => {
    unsubscribe();
    clearTimeout(expiry);
    lost.abort();
  };

  const check = async (): Promise<void> => {
    if (lost.signal.aborted) return;
    if (checking) return void (checkAgain = true);
    checking = true;
    try {
      const { actor, expiresAt } = await authenticate(headers, getConfig().API_KEY);
      if (!satisfies(actor.permissions, requirement)) return end();
      // Unknown while the database is down: the expiry armed before stands.
      if (expiresAt !== undefined && !lost.signal.aborted) {
        clearTimeout(expiry);
        if (Number.isFinite(expiresAt)) {
          expiry = setTimeout(() => void check(), Math.min(Math.max(0, expiresAt - Date.now()), LONGEST_TIMER_MS));
          expiry.unref();
        }
      }
    } catch (error) {
      if (error instanceof DomainError && error.code === "UNAUTHORIZED") return end();
      log.warn({ err: error }, "an open stream's credential could not be checked; checked again at the next change");
    } finally {
      checking = false;
    }
    if (checkAgain && !lost.signal.aborted) {
      checkAgain = false;
      await check();
    }
  };

  const unsubscribe = onAccessChange(() => void check());
  until.addEventListener("abort", end, { once: true });
  if (until.aborted) end();
  // A change between the opening request's check and the subscription is caught here.
  else void check();
  return AbortSignal.any([until, lost.signal]);
}
