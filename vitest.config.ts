import { defineConfig } from "vitest/config";
import { LongFilesFirst } from "./tests/setup/sequencer";

/**
 * One run starts Redis, the MongoDB-compatible server, the API and the workers once: the stack's
 * globalSetup sits on the root project alone, which vitest always sets up, and the projects do not
 * extend the root (an inherited globalSetup would boot one more stack per project).
 *
 * The unit, integration and browser files are one project and run side by side, three at a time, in
 * the same three test workers from start to end: vitest starts a test worker per project, so three
 * projects cost a dozen worker starts (each importing mongoose, BullMQ, playwright and the shared code
 * again) and left a slot empty while one started. The project's globalSetup builds the web app for
 * the browser files (vitest sets up the projects before the root), so the stack serves the fresh
 * build; a run of a few integration files builds it too, beside the tests, which do not wait for it.
 *
 * The burst test (2,000 connections at once, on a stack of its own) is one of the files run first, one
 * at a time (below): beside other files it would slow them, and they it.
 *
 * Three files change shared settings in a way the others would notice, so none of them runs beside
 * the others: one rotates the SMS integration's webhook secret (the SMS suites sign with it), two
 * change the wallet tables for a while (cache-bus behind the API's back, admin-config through it) and
 * assert on them, which an administrator's save elsewhere (admin-dashboard saves the tables it loaded)
 * would break. They run first, one after the other, while the static checks and the web build keep
 * the cores busy, and leave the settings as a suite starting after them expects (the SMS suites set
 * their own secret and limits). The browser suite of the SMS Integration form, which rotates the
 * secret too, has an API process and a database of its own instead, and runs beside the others.
 *
 * Files are not isolated: each test worker imports mongoose, BullMQ and the shared code once for
 * all the files it runs (importing them per file cost more than a minute of CPU per run). A file
 * closes what it opens (connections, clients) in its afterAll.
 */
// The run's MongoDB-compatible servers live minutes: the quick compiler alone and one collector
// thread cost less CPU than the JVM's defaults (docs/operations.md). Inherited by the test workers.
process.env.MONGO_JAVA_OPTS ??= "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

const common = { testTimeout: 60_000, hookTimeout: 120_000, pool: "forks", isolate: false } as const;
// Groups run one after another, in this order (vitest skips a negative groupOrder).
const FIRST = { groupOrder: 0 };
const MAIN = { groupOrder: 1 };
const FIRST_FILES = [
  "tests/integration/admin-sms-audit.test.ts",
  "tests/integration/cache-bus.test.ts",
  "tests/integration/admin-config.test.ts",
  "tests/integration/burst.test.ts",
];
const UNIT_FILES = ["shared/src/**/*.test.ts", "api/src/**/*.test.ts", "workers/src/**/*.test.ts", "scripts/lib/**/*.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["tests/setup/global.ts"],
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        test: {
          ...common,
          name: "shared-settings-first",
          include: FIRST_FILES,
          fileParallelism: false,
          sequence: FIRST,
        },
      },
      {
        test: {
          ...common,
          name: "main",
          include: [...UNIT_FILES, "tests/integration/**/*.test.ts", "tests/browser/**/*.test.ts"],
          exclude: FIRST_FILES,
          sequence: MAIN,
          globalSetup: ["tests/setup/build-web.ts"],
        },
      },
    ],
  },
});
