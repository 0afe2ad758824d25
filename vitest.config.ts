import { defineConfig } from "vitest/config";

/**
 * One run starts Redis, the MongoDB-compatible server, the API and the workers once: the stack's
 * globalSetup sits on the root project alone, which vitest always sets up, and the projects do not
 * extend the root (an inherited globalSetup would boot one more stack per project). The browser
 * project's own globalSetup builds the web app first (vitest sets up the projects that have tests
 * before the root), so the stack serves the fresh build.
 */
const common = { testTimeout: 60_000, hookTimeout: 120_000, pool: "forks" } as const;

export default defineConfig({
  test: {
    globalSetup: ["tests/setup/global.ts"],
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    projects: [
      {
        test: {
          ...common,
          name: "unit",
          include: ["shared/src/**/*.test.ts", "api/src/**/*.test.ts", "workers/src/**/*.test.ts", "scripts/lib/**/*.test.ts"],
        },
      },
      { test: { ...common, name: "integration", include: ["tests/integration/**/*.test.ts"] } },
      {
        test: {
          ...common,
          name: "browser",
          include: ["tests/browser/**/*.test.ts"],
          fileParallelism: false,
          globalSetup: ["tests/setup/build-web.ts"],
        },
      },
    ],
  },
});
