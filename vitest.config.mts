import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/file-database.ts"],
    pool: "forks",
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    // API_KEY: tests/support/auth.ts TEST_API_KEY, the Bearer key of apiRequest().
    env: { NODE_ENV: "test", LOG_LEVEL: "silent", API_KEY: "test-api-key-0123456789abcdef" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
