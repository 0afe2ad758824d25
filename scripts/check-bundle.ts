/**
 * Bundle budget (issue 4): the JavaScript the home page needs before first paint (entry, its
 * static imports, the Home chunk and the public English texts) must stay under 100 KB gzipped.
 * Prints every route chunk's gzipped size. Run after `npm run build -w web`.
 * `--write` also records the figures in docs/performance.md under "Web bundle".
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "web/dist");
const manifestFile = path.join(dist, ".vite/manifest.json");
const BUDGET_BYTES = 100 * 1024;

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

if (!existsSync(manifestFile)) {
  console.error("web/dist/.vite/manifest.json is missing: run `npm run build -w web` first");
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, Chunk>;
const gzipCache = new Map<string, number>();
const gz = (file: string) => {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
};

/** A chunk's file plus every chunk it statically imports, transitively. */
function closure(key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, into);
  return into;
}

const keyOf = (test: (key: string) => boolean, what: string) => {
  const key = Object.keys(manifest).find(test);
  if (!key) throw new Error(`no chunk for ${what} in the manifest`);
  return key;
};
const entryKey = keyOf((k) => manifest[k]!.isEntry === true, "the entry");
const homeKey = keyOf((k) => k.endsWith("screens/Home/Home.tsx"), "the Home screen");
const publicEnKey = keyOf((k) => k.includes("i18n-public/en"), "the public English catalog");

const initial = closure(entryKey);
closure(homeKey, initial);
closure(publicEnKey, initial);
const initialBytes = [...initial].reduce((sum, file) => sum + gz(file), 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const routes = Object.keys(manifest)
  .filter((k) => /screens\/[^/]+\/[^/]+\.tsx$/u.test(k) && path.basename(k, ".tsx") === path.basename(path.dirname(k)))
  .sort()
  .map((k) => {
    const own = gz(manifest[k]!.file);
    const extra = [...closure(k)].filter((f) => !initial.has(f)).reduce((sum, f) => sum + gz(f), 0);
    return { screen: path.basename(path.dirname(k)), own, extra };
  });

const lines = [
  `Home page initial JavaScript: ${kb(initialBytes)} gzipped (budget ${kb(BUDGET_BYTES)}; ${initial.size} files: ${[...initial].map((f) => path.basename(f)).join(", ")})`,
  "",
  "| Route chunk | Own chunk (gzip) | Loaded on top of the initial JS (gzip) |",
  "|---|---|---|",
  ...routes.map((r) => `| ${r.screen} | ${kb(r.own)} | ${kb(r.extra)} |`),
];
console.log(lines.join("\n"));

if (process.argv.includes("--write")) {
  const doc = path.join(root, "docs/performance.md");
  const section = [
    "## Web bundle",
    "",
    "Measured by `scripts/check-bundle.ts` on the production build (`npm run build -w web`), gzip level 9. The budget is",
    "checked in CI: the home page's initial JavaScript must stay under 100 KB gzipped. The text catalogs are split so the",
    "home page loads only the public sections of one language; every route is its own lazily loaded chunk.",
    "",
    initialBytes > BUDGET_BYTES
      ? "**Over budget.** Most of the initial JavaScript is the libraries the home page renders with: react-dom (about 60 KB gzipped), i18next with react-i18next (about 17 KB) and react-router (about 12 KB); the app's own frame is under 5 KB. The data library (TanStack Query) and the socket client are already loaded only behind the login."
      : "Within budget.",
    "",
    ...lines,
    "",
  ].join("\n");
  const current = existsSync(doc) ? readFileSync(doc, "utf8") : "# Performance\n\n";
  const pattern = /## Web bundle\n[\s\S]*?(?=\n## |$)/u;
  const next = pattern.test(current) ? current.replace(pattern, section.trimEnd() + "\n") : `${current.trimEnd()}\n\n${section}`;
  writeFileSync(doc, next);
}

if (initialBytes > BUDGET_BYTES) {
  console.error(`Home page initial JavaScript ${kb(initialBytes)} exceeds the ${kb(BUDGET_BYTES)} budget`);
  process.exit(1);
}
