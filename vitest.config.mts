import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/file-database.ts"],
    pool: "forks",
    // One test file per core, at least two: vitest's default (cores - 1) ran one at a time on a
    // two-core machine, where a file spends much of its time waiting (its database, timers); two
    // took the embedded run from 740 s to 462 s, every test passing (issue 40's note).
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    // API_KEY: tests/support/auth.ts TEST_API_KEY, the Bearer key of apiRequest().
    env: { NODE_ENV: "test", LOG_LEVEL: "silent", API_KEY: "test-api-key-0123456789abcdef" },
    // Guards against a hang, not timings (those are bench/'s): a newcomer's run on a busy two-core
    // machine (load 10-15) took 23-33 s for integration tests of 50-1,000 requests with nothing
    // wrong, so 30 s failed runs at random; tests/support/timeouts.ts has the larger guards.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
