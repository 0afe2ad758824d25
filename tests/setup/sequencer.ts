import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take five seconds or more of a full run on two cores, longest first, in the order
 * they should start. Started first, they end while the short files fill the other test workers,
 * instead of starting last and leaving the run waiting on one of them (on a clean clone vitest has
 * no durations of its own to order by: backup and security, small files, came last and made a
 * tail). The two long integration files come before the browser files: those wait for the run's
 * web build, and two test workers busy with other work keep both cores busy while it builds.
 * The figures are each file's seconds in the full run of 2026-11-27 14:05 UTC (a loaded machine,
 * 480 s in all; docs/performance.md): a file that reaches five seconds belongs here, by its figure.
 */
const LONG_FIRST = [
  // On a fresh machine it first builds helm from the Go module proxy (minutes); 26 s afterwards.
  "tests/integration/helm.test.ts",
  // On a fresh machine it first installs litellm[proxy] from PyPI into a venv (~165 s); 12 s afterwards.
  "tests/integration/providers-litellm.test.ts",
  "tests/integration/sms-integration.test.ts", // 130 (23 alone): its burst of 1,000 messages is CPU the others share
  "tests/integration/chaos.test.ts", // 89
  // RabbitMQ and Jasmin take half a minute to start, mostly waiting: started early, they overlap the web build (43).
  "tests/integration/sms-jasmin.test.ts",
  "tests/browser/pwa.test.ts", // 104
  "tests/browser/first-visit.test.ts", // 84
  "tests/browser/admin-dashboard.test.ts", // 79
  "tests/browser/app.test.ts", // 73
  "tests/integration/jobs-failures.test.ts", // 67
  "tests/integration/fuzz.test.ts", // 54
  "tests/integration/images.test.ts", // 48
  "tests/browser/screens.test.ts", // 45
  "tests/integration/providers-chat-stack.test.ts", // 44
  "tests/integration/value-paths.test.ts", // 34
  "tests/integration/providers-stack.test.ts", // 26
  "tests/browser/verify-phone.test.ts", // 25
  "tests/integration/scale.test.ts", // 23
  "tests/integration/frozen-worker.test.ts", // 22
  "tests/browser/phones.test.ts", // 21
  "tests/browser/security.test.ts", // 21
  "tests/integration/phone-proof.test.ts", // 20
  "tests/integration/backup.test.ts", // 18
  "tests/integration/web-protections.test.ts", // 18
  "tests/integration/admin-admins.test.ts", // 14
  "tests/integration/sms-kannel.test.ts", // 11
  // Five to ten seconds: started after the short files, one of them was the run's last (start-failure
  // began at 303 s of 312 in the run of 14:25 UTC, the other test workers done by 306 s).
  "tests/integration/mongo-stand-in.test.ts", // 9
  "tests/browser/admin-sms-integration.test.ts", // 9
  "scripts/lib/front.test.ts", // 8
  "tests/integration/start-failure.test.ts", // 7–9
  "tests/browser/bundle.test.ts", // 6
  "tests/integration/videos.test.ts", // 6
  "tests/integration/providers-images.test.ts", // 6
  "tests/browser/late-job-failure.test.ts", // 6
  "tests/browser/late-job-result.test.ts", // 6 alone (new since those runs)
  "tests/integration/redemption-codes.test.ts", // 4–6
  "tests/integration/admin-queues.test.ts", // 5–6
  "tests/integration/providers-video.test.ts", // 5
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
