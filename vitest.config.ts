import { defineConfig } from "vitest/config";

/**
 * One run starts Redis, the MongoDB-compatible server, the API and the workers once
 * (tests/setup/global.ts); every suite uses them.
 */
export default defineConfig({
  test: {
    globalSetup: ["tests/setup/global.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["shared/src/**/*.test.ts", "api/src/**/*.test.ts", "workers/src/**/*.test.ts"] },
      },
      { extends: true, test: { name: "integration", include: ["tests/integration/**/*.test.ts"] } },
      { extends: true, test: { name: "browser", include: ["tests/browser/**/*.test.ts"], fileParallelism: false } },
    ],
  },
});
