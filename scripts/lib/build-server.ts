/**
 * The API and the worker program as one JavaScript file each (esbuild, a fraction of a second):
 * a process then starts in well under a second, where tsx compiles several hundred modules on
 * every start (two seconds on a quiet machine, twenty under load), which is most of what a
 * restarted process is down for. Our own packages are bundled; dependencies stay in node_modules
 * and are loaded as they are. Each file is written beside its package (api/dist, workers/dist),
 * so its imports resolve from there, and renamed into place, so a process starting while another
 * run builds never reads half a file.
 */
import { rename, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";

export const SERVER_PROGRAMS = {
  api: { entry: "api/src/main.ts", out: "api/dist/main.mjs" },
  workers: { entry: "workers/src/main.ts", out: "workers/dist/main.mjs" },
} as const;
export type ServerProgram = keyof typeof SERVER_PROGRAMS;

/** Bare imports are dependencies, left to node_modules; "@storefront/…" are ours, bundled. */
const dependenciesExternal: Plugin = {
  name: "dependencies-external",
  setup(b) {
    // esbuild runs the filter as a Go regular expression, which knows no "u" flag.
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith("@storefront/") ? undefined : { external: true }));
  },
};

async function buildOne(root: string, program: ServerProgram): Promise<string> {
  const { entry, out } = SERVER_PROGRAMS[program];
  const outfile = path.join(root, out);
  const result = await build({
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    write: false,
    logLevel: "error",
    plugins: [dependenciesExternal],
  });
  await mkdir(path.dirname(outfile), { recursive: true });
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  await Promise.all(result.outputFiles.map((file) => writeFile(file.path + suffix, file.contents)));
  // The map first: a process that finds the new program finds its map too.
  const ordered = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith(".map")) - Number(a.path.endsWith(".map")));
  for (const file of ordered) await rename(file.path + suffix, file.path);
  return outfile;
}

/** Builds both programs; answers the path of each. */
export async function buildServer(root: string): Promise<Record<ServerProgram, string>> {
  const [api, workers] = await Promise.all([buildOne(root, "api"), buildOne(root, "workers")]);
  return { api, workers };
}
