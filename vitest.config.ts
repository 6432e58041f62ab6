import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/bench/**", "node_modules/**"],
    globalSetup: ["test/setup/global-db.ts"],
    setupFiles: ["test/setup/file-db.ts"],
    // Each file gets its own database; files run in parallel workers on the two cores.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      OPERATOR_TOKEN: "test-operator-token-0123456789",
      DATA_DIR: path.join(import.meta.dirname, ".data", "test"),
      MIGRATE_ON_START: "false",
      JOBS_RUNNER: "off",
    },
  },
});
