/**
 * The top frames of V8 CPU profiles by self time: `npx tsx scripts/bench/profile-top.ts <dir|file>... [--top N]`.
 * Each .cpuprofile (written by `BENCH_PROFILE_DIR=<dir> npm run bench`) is printed on its own:
 * self time in ms and share of the sampled time, function, and file:line (paths shortened).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topIndex = args.indexOf("--top");
const top = topIndex >= 0 ? Number(args[topIndex + 1]) : 15;
const inputs = args.filter((a, i) => a !== "--top" && (topIndex < 0 || i !== topIndex + 1));
if (!inputs.length) throw new Error("usage: profile-top.ts <dir|file.cpuprofile>... [--top N]");

const files = inputs.flatMap((input) =>
  statSync(input).isDirectory()
    ? readdirSync(input)
        .filter((f) => f.endsWith(".cpuprofile"))
        .map((f) => path.join(input, f))
    : [input],
);

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//u, "")
    .replace(/.*\/node_modules\//u, "")
    .replace(/.*\/(api|shared|workers|scripts)\/src\//u, "$1/");
}

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const label = `${functionName || "(anonymous)"}  ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ""}`.trim();
    selfUs.set(label, (selfUs.get(label) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  console.log(`\n${path.basename(file)}: ${(total / 1000).toFixed(0)} ms sampled`);
  for (const [label, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${(us / 1000).toFixed(1).padStart(8)} ms ${((us / total) * 100).toFixed(1).padStart(5)}%  ${label}`);
  }
}
