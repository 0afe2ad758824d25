/**
 * Bundle budget: the JavaScript the home page needs before first paint (the entry, its
 * static imports, the Home chunk and the public English texts) must stay under 100 KB gzipped.
 *
 * Sizes are the bytes users download: the precompressed `.gz` and `.br` files the build writes
 * beside each asset and the API and nginx send as they are, or the file itself where the build wrote
 * no smaller copy. Each copy is checked to decompress to its asset, so a stale or broken copy fails
 * the check instead of being measured.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { PRECOMPRESSED } from "@storefront/shared";
import { closure, initialFiles, readManifest } from "./manifest";

export const BUDGET_BYTES = 100 * 1024;

export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export interface RouteSize {
  screen: string;
  /** The route's own chunk, gzipped. */
  own: number;
  /** Everything the route loads beyond the home page's initial files, gzipped. */
  extra: number;
}

export interface BundleReport {
  initial: FileSize[];
  initialGzip: number;
  initialBrotli: number;
  initialRaw: number;
  routes: RouteSize[];
  /** Precompressed copies that do not decompress to their asset. */
  problems: string[];
}

export function measureBundle(dist: string): BundleReport {
  const manifest = readManifest(dist);
  const problems: string[] = [];
  const sizes = new Map<string, FileSize>();

  const sizeOf = (file: string): FileSize => {
    let size = sizes.get(file);
    if (size) return size;
    const full = path.join(dist, file);
    const raw = readFileSync(full);
    const copy = (suffix: string, decode: (data: Buffer) => Buffer): number => {
      if (!existsSync(full + suffix)) return raw.length;
      const data = readFileSync(full + suffix);
      if (!decode(data).equals(raw)) problems.push(`${file}${suffix} does not decompress to ${file}`);
      return data.length;
    };
    size = {
      file,
      raw: raw.length,
      gzip: copy(PRECOMPRESSED.gzip, gunzipSync),
      brotli: copy(PRECOMPRESSED.br, brotliDecompressSync),
    };
    sizes.set(file, size);
    return size;
  };

  const initial = [...initialFiles(manifest)].map(sizeOf);
  const sum = (files: FileSize[], field: "raw" | "gzip" | "brotli") => files.reduce((total, f) => total + f[field], 0);

  const initialSet = new Set(initial.map((f) => f.file));
  const routes = Object.keys(manifest)
    .filter((k) => /screens\/[^/]+\/[^/]+\.tsx$/u.test(k) && path.basename(k, ".tsx") === path.basename(path.dirname(k)))
    .sort()
    .map((k) => ({
      screen: path.basename(path.dirname(k)),
      own: sizeOf(manifest[k]!.file).gzip,
      extra: sum([...closure(manifest, k)].filter((f) => !initialSet.has(f)).map(sizeOf), "gzip"),
    }));

  return {
    initial,
    initialGzip: sum(initial, "gzip"),
    initialBrotli: sum(initial, "brotli"),
    initialRaw: sum(initial, "raw"),
    routes,
    problems,
  };
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** The report as the lines docs/performance.md and the console show. */
export function describeBundle(report: BundleReport): string[] {
  return [
    `Home page initial JavaScript: **${kb(report.initialGzip)} gzipped** (budget ${kb(BUDGET_BYTES)}), ${kb(report.initialBrotli)} brotli, ${kb(report.initialRaw)} uncompressed;`,
    `${report.initial.length} files: ${report.initial.map((f) => `${path.basename(f.file)} (${kb(f.gzip)})`).join(", ")}.`,
    "",
    "| Route chunk | Own chunk (gzip) | Loaded on top of the initial JS (gzip) |",
    "|---|---|---|",
    ...report.routes.map((r) => `| ${r.screen} | ${kb(r.own)} | ${kb(r.extra)} |`),
  ];
}
