/**
 * The process's long-lived parts (the database handle, the grouper, the change tail, the file
 * writer's thread...), one of each per process whichever bundle asks: Next.js compiles route
 * handlers, pages and instrumentation.ts into separate bundles, each with its own copy of every
 * module, so the parts live on globalThis, in this one registry.
 *
 * A part that works in the background says how it stops, and stopProcessParts() stops them all
 * before the process lets go of its data (a server's shutdown, a test file's teardown): nothing
 * it started may still write into the data directory, or open the database again, afterwards.
 */
interface Part {
  value: unknown;
  stop?: (value: never) => Promise<void> | void;
}

const holder = globalThis as typeof globalThis & { [key: symbol]: Map<string, Part> | undefined };
const PARTS_KEY = Symbol.for("mayday.process.parts");
const parts = (holder[PARTS_KEY] ??= new Map<string, Part>());

/** The process's one `name`, made by `create` on first use; `stop` ends what it runs in the background. */
export function processPart<T>(name: string, create: () => T, stop?: (value: T) => Promise<void> | void): T {
  let part = parts.get(name);
  if (!part) {
    part = { value: create(), stop };
    parts.set(name, part);
  }
  return part.value as T;
}

/** The part if it was made, without making it. */
export function existingPart<T>(name: string): T | undefined {
  return parts.get(name)?.value as T | undefined;
}

/** Forgets `name` without stopping it (its owner closes it): the next use makes a new one. */
export function forgetPart(name: string, value?: unknown): void {
  if (value === undefined || parts.get(name)?.value === value) parts.delete(name);
}

/** Puts `value` in place of `name` (tests install their own), or forgets it when undefined. */
export function replacePart<T>(name: string, value: T | undefined): void {
  if (value === undefined) parts.delete(name);
  else parts.set(name, { value });
}

/**
 * Stops every part, the newest first (the database, made before what uses it, closes after it),
 * and resolves once each has finished what it was doing. A part that a stopping one makes again
 * (a last write waking the grouper) is stopped in turn.
 */
export async function stopProcessParts(): Promise<void> {
  for (;;) {
    const newest = [...parts].at(-1);
    if (!newest) return;
    const [name, part] = newest;
    parts.delete(name);
    await part.stop?.(part.value as never);
  }
}
