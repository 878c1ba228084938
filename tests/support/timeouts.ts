/**
 * A test that posts hundreds or thousands of requests (the property tests over generated
 * payloads, EIDO of 300 incidents) or writes a thousand calls (an exercise's release): vitest's 30 s default is a guard against a hang, and such a test took longer than
 * that on a busy two-core machine while its requests all answered. The limit stays a guard, not a
 * timing: how fast these run is a benchmark's question (bench/).
 */
export const MANY_REQUESTS_TIMEOUT_MS = 300_000;

/**
 * A test that applies every migration to a new embedded PGlite database (one process, WebAssembly):
 * about 30 s on a busy two-core machine as the migrations grew, so vitest's default timed it out
 * with nothing wrong. A guard against a hang, as above.
 */
export const MIGRATE_FROM_EMPTY_TIMEOUT_MS = 180_000;
