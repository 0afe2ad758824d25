/**
 * The web build's chunk graph (vite's `build.manifest`) and the files the home page loads before
 * first paint: what the bundle budget measures (bundle.ts) and what the build compresses hardest
 * (web/vite.plugins.ts). No package imports, so vite's config loader can load it as it is.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** The build's chunk manifest (vite `build.manifest`). */
export function readManifest(dist: string): Manifest {
  const manifestFile = path.join(dist, ".vite/manifest.json");
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run \`npm run build -w web\` first`);
  return JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
}

/** A chunk's file plus every chunk it statically imports, transitively. */
export function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, into);
  return into;
}

/** The files the home page loads before first paint (paths relative to the build's folder). */
export function initialFiles(manifest: Manifest): Set<string> {
  const keyOf = (test: (key: string) => boolean, what: string): string => {
    const key = Object.keys(manifest).find(test);
    if (!key) throw new Error(`no chunk for ${what} in the manifest`);
    return key;
  };
  const files = closure(
    manifest,
    keyOf((k) => manifest[k]!.isEntry === true, "the entry"),
  );
  closure(
    manifest,
    keyOf((k) => k.endsWith("screens/Home/Home.tsx"), "the Home screen"),
    files,
  );
  closure(
    manifest,
    keyOf((k) => k.includes("i18n-public/en"), "the public English catalog"),
    files,
  );
  return files;
}
