/**
 * The API and the worker program as one JavaScript file each (esbuild, a fraction of a second):
 * a process then starts in well under a second, where tsx compiles several hundred modules on
 * every start (two seconds on a quiet machine, twenty under load), which is most of what a
 * restarted process is down for. Our packages and the dependencies are bundled: loading them as
 * several thousand files from node_modules cost a process about a second of CPU at every start
 * (docs/performance.md). What must stay a package of its own stays in node_modules (NOT_BUNDLED).
 * Each file is written beside its package (api/dist, workers/dist), so those imports resolve
 * from there, and renamed into place, so a process starting while another run builds never reads
 * half a file.
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { decode, encode, type SourceMapSegment } from "@jridgewell/sourcemap-codec";
import { build, version as esbuildVersion, type BuildOptions, type OutputFile } from "esbuild";

export const SERVER_PROGRAMS = {
  api: { entry: "api/src/main.ts", out: "api/dist/main.mjs" },
  workers: { entry: "workers/src/main.ts", out: "workers/dist/main.mjs" },
} as const;
export type ServerProgram = keyof typeof SERVER_PROGRAMS;

/**
 * Dependencies left in node_modules: native add-ons, packages that find their own files on disk at
 * run time (bull-board's UI, ffmpeg's binary), and optional drivers that are not installed.
 */
const NOT_BUNDLED = [
  "sharp",
  "@node-rs/argon2",
  "@bull-board/*",
  "@ffmpeg-installer/*",
  "smpp",
  // Finds its native decoder (msgpackr-extract) relative to itself; bundled, it silently used the slower one.
  "msgpackr",
  // Optional peers of mongodb and ws, required only when installed.
  "kerberos",
  "snappy",
  "@mongodb-js/zstd",
  "mongodb-client-encryption",
  "gcp-metadata",
  "socks",
  "aws4",
  "@aws-sdk/credential-providers",
  "bufferutil",
  "utf-8-validate",
];

/**
 * Bundled CommonJS dependencies call require() for Node's own modules and name __dirname (ioredis
 * passes it when it trims an error's stack); ESM has neither, so the bundle defines them. __dirname
 * is then the bundle's folder: the few packages that look for their own files there stay in
 * NOT_BUNDLED, or are not used that way (Socket.IO's client files: `serveClient: false`).
 */
const BANNER = [
  'import { createRequire as __bundleCreateRequire } from "node:module";',
  'import { dirname as __bundleDirname } from "node:path";',
  'import { fileURLToPath as __bundleFileURLToPath } from "node:url";',
  "const require = __bundleCreateRequire(import.meta.url);",
  "const __filename = __bundleFileURLToPath(import.meta.url);",
  "const __dirname = __bundleDirname(__filename);",
].join(" ");

/**
 * Keeps only our own lines in the source map: stack traces point at them, and a start parses less.
 * Where a dependency's code follows ours, one segment without a source ends our mapping: a frame
 * there keeps its place in the bundle (Node takes the nearest segment before a position, which
 * would otherwise name the last line of ours before it).
 */
function ownSourcesOnly(map: OutputFile): Uint8Array {
  const json = JSON.parse(map.text) as { sources: string[]; mappings: string; sourcesContent?: (string | null)[] };
  const dependency = json.sources.map((source) => source.includes("node_modules/"));
  let mapped = false;
  const lines = decode(json.mappings).map((segments) =>
    segments.flatMap((segment): SourceMapSegment[] => {
      const ours = segment.length > 1 && !dependency[segment[1]!];
      if (ours || segment.length === 1) {
        mapped = ours;
        return [segment];
      }
      if (!mapped) return [];
      mapped = false;
      return [[segment[0]]];
    }),
  );
  json.mappings = encode(lines);
  if (json.sourcesContent) json.sourcesContent = json.sourcesContent.map((content, i) => (dependency[i] ? null : content));
  return new TextEncoder().encode(JSON.stringify(json));
}

type Stamp = [mtimeMs: number, size: number];

/** What a bundle was built from (the build's options, each input file's time and size) and what it wrote. */
interface BuildRecord {
  options: string;
  inputs: Record<string, Stamp>;
  /** The bundle and its map as this build left them: a later build's files do not match this record. */
  outputs: [Stamp, Stamp];
}

/**
 * Files that decide how imports resolve without being read as a module: a change to any of them
 * (an upgraded or newly nested dependency, a path setting) builds again.
 */
const RESOLUTION_FILES = [
  "package-lock.json",
  "package.json",
  "tsconfig.json",
  "tsconfig.base.json",
  "api/package.json",
  "workers/package.json",
  "shared/package.json",
];

const recordPath = (outfile: string) => `${outfile}.inputs.json`;

async function fileStamp(file: string): Promise<Stamp | null> {
  const info = await stat(file).catch(() => null);
  return info ? [info.mtimeMs, info.size] : null;
}

const sameStamp = (now: Stamp | null, then: Stamp | undefined) => now?.[0] === then?.[0] && now?.[1] === then?.[1];

/** True when the bundle on disk was built with these options from files that have not changed since. */
async function upToDate(root: string, outfile: string, options: string): Promise<boolean> {
  const record = (await readFile(recordPath(outfile), "utf8").then(JSON.parse, () => null)) as BuildRecord | null;
  if (record?.options !== options || !record.outputs) return false;
  const outputs = await Promise.all([fileStamp(outfile), fileStamp(`${outfile}.map`)]);
  if (!outputs.every((stamp, i) => sameStamp(stamp, record.outputs[i]))) return false;
  const stamps = await Promise.all(
    Object.entries(record.inputs).map(async ([file, then]) => sameStamp(await fileStamp(path.join(root, file)), then)),
  );
  return stamps.every(Boolean);
}

/**
 * Builds one program, unless the bundle on disk is up to date: a test run starts several stacks,
 * and bundling the dependencies takes seconds.
 */
async function buildOne(root: string, program: ServerProgram): Promise<string> {
  const { entry, out } = SERVER_PROGRAMS[program];
  const outfile = path.join(root, out);
  const options = {
    absWorkingDir: root,
    entryPoints: [path.join(root, entry)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    write: false,
    metafile: true,
    logLevel: "error",
    external: NOT_BUNDLED,
    banner: { js: BANNER },
    // Packages' "module" builds first (named exports of ESM), as Node's own resolution would for import.
    mainFields: ["module", "main"],
  } satisfies BuildOptions;
  const fingerprint = createHash("sha256")
    .update(JSON.stringify({ options, esbuildVersion, ownSourcesOnly: ownSourcesOnly.toString() }))
    .digest("hex");
  if (await upToDate(root, outfile, fingerprint)) return outfile;

  const startedAt = Date.now();
  const result = await build(options);
  await mkdir(path.dirname(outfile), { recursive: true });
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  await Promise.all(
    result.outputFiles.map((file) =>
      writeFile(file.path + suffix, file.path.endsWith(".map") ? ownSourcesOnly(file) : file.contents),
    ),
  );
  // The map first: a process that finds the new program finds its map too.
  const ordered = [...result.outputFiles].sort((a, b) => Number(b.path.endsWith(".map")) - Number(a.path.endsWith(".map")));
  for (const file of ordered) await rename(file.path + suffix, file.path);
  // Stamped after the files are in place, so a record never vouches for a bundle that is not there.
  const inputs: BuildRecord["inputs"] = {};
  let changedDuringBuild = false;
  await Promise.all(
    [...Object.keys(result.metafile.inputs), ...RESOLUTION_FILES].map(async (file) => {
      const now = await fileStamp(path.join(root, file));
      if (!now) return;
      inputs[file] = now;
      // Saved while esbuild was reading: the bundle may hold the older text, so vouch for nothing.
      if (now[0] >= startedAt) changedDuringBuild = true;
    }),
  );
  const outputs = await Promise.all([fileStamp(outfile), fileStamp(`${outfile}.map`)]);
  if (changedDuringBuild || !outputs[0] || !outputs[1]) {
    await rm(recordPath(outfile), { force: true });
    return outfile;
  }
  const record: BuildRecord = { options: fingerprint, inputs, outputs: [outputs[0], outputs[1]] };
  await writeFile(recordPath(outfile) + suffix, JSON.stringify(record));
  await rename(recordPath(outfile) + suffix, recordPath(outfile));
  return outfile;
}

/** Builds both programs; answers the path of each. */
export async function buildServer(root: string): Promise<Record<ServerProgram, string>> {
  const [api, workers] = await Promise.all([buildOne(root, "api"), buildOne(root, "workers")]);
  return { api, workers };
}
