/** `npm run build:server`: the API and worker programs as api/dist/main.mjs and workers/dist/main.mjs (lib/build-server.ts). */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer } from "./lib/build-server";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const started = Date.now();
const built = await buildServer(root);
console.log(`built ${path.relative(root, built.api)} and ${path.relative(root, built.workers)} in ${Date.now() - started} ms`);
