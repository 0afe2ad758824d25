/**
 * Prints the home page's initial JavaScript and every route chunk's size (scripts/lib/bundle.ts) and
 * fails over the budget or on a broken precompressed copy. Run after `npm run build -w web`; the
 * browser test suite runs the same check on the build it tests.
 * `--write` also records the figures in docs/performance.md, between the "bundle figures" markers.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BUDGET_BYTES, describeBundle, kb, measureBundle } from "./lib/bundle";
import { writeDocSection } from "./lib/doc-section";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const report = measureBundle(path.join(root, "web/dist"));
const lines = describeBundle(report);
console.log(lines.join("\n"));

if (process.argv.includes("--write")) writeDocSection(path.join(root, "docs/performance.md"), "bundle figures", lines);

for (const problem of report.problems) console.error(problem);
if (report.initialGzip > BUDGET_BYTES) {
  console.error(`Home page initial JavaScript ${kb(report.initialGzip)} exceeds the ${kb(BUDGET_BYTES)} budget`);
}
if (report.problems.length > 0 || report.initialGzip > BUDGET_BYTES) process.exit(1);
