import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take ten seconds or more of a full run on two cores, longest first, in the order
 * they should start. Started first, they end while the short files fill the other test workers,
 * instead of starting last and leaving the run waiting on one of them (on a clean clone vitest has
 * no durations of its own to order by: backup and security, small files, came last and made a
 * tail). The two long integration files come before the browser files: those wait for the run's
 * web build, and two test workers busy with other work keep both cores busy while it builds.
 */
const LONG_FIRST = [
  // On a fresh machine it first builds helm from the Go module proxy (minutes); seconds afterwards.
  "tests/integration/helm.test.ts",
  "tests/integration/chaos.test.ts",
  // RabbitMQ and Jasmin take half a minute to start, mostly waiting: started early, they overlap the web build.
  "tests/integration/sms-jasmin.test.ts",
  "tests/integration/sms-integration.test.ts",
  "tests/browser/screens.test.ts",
  "tests/browser/admin-dashboard.test.ts",
  "tests/browser/app.test.ts",
  "tests/integration/jobs-failures.test.ts",
  "tests/integration/providers-chat-stack.test.ts",
  "tests/integration/scale.test.ts",
  "tests/integration/fuzz.test.ts",
  "tests/browser/phones.test.ts",
  "tests/integration/providers-stack.test.ts",
  "tests/browser/security.test.ts",
  "tests/integration/backup.test.ts",
  "tests/integration/sms-kannel.test.ts",
  "tests/integration/admin-admins.test.ts",
];

/**
 * vitest's order (group, then project, then the durations it cached, else the larger file first),
 * with LONG_FIRST moved to the front of their group. On a clean clone there are no cached
 * durations, and the larger files are not the longer ones.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONG_FIRST.indexOf(relative(this.ctx.config.root, spec.moduleId).replaceAll("\\", "/"));
      return index === -1 ? LONG_FIRST.length : index;
    };
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // Array.prototype.sort is stable: the files left where they were keep vitest's order.
    return sorted.sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}
