import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress, publicCatalogs, treeShakeReactRouter } from "./vite.plugins";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The API the dev server forwards /api and /socket.io to (the built app is served by the API itself). */
const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? "3000"}`;

export default defineConfig({
  root: here,
  plugins: [react(), publicCatalogs(path.join(here, "../shared/src/i18n")), treeShakeReactRouter(), precompress()],
  server: {
    host: "127.0.0.1",
    port: Number(process.env.WEB_PORT ?? process.env.PORT ?? 5173),
    proxy: {
      // The browser's Host goes through unchanged: the API refuses calls whose Origin is not the
      // host they were sent to (or in ALLOWED_ORIGINS).
      "/api": { target: apiTarget, changeOrigin: false },
      "/socket.io": { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  resolve: {
    alias: [
      // React 18+ has useSyncExternalStore built in; the shim (for older React, imported by
      // react-i18next) would only add bytes to every page.
      // zod, configured for the Content-Security-Policy before any schema exists (src/lib/zod.ts).
      { find: /^zod$/u, replacement: path.join(here, "src/lib/zod.ts") },
      { find: /^use-sync-external-store\/shim$/u, replacement: path.join(here, "src/lib/sync-external-store.ts") },
    ],
  },
  build: {
    outDir: path.join(here, "dist"),
    emptyOutDir: true,
    // scripts/check-bundle.ts reads the chunk graph from the manifest.
    manifest: true,
    // Every browser the app supports has native modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // The shared package holds only declarations (constants, pure functions, zod schemas); telling the
      // bundler so lets it drop the schemas a chunk never uses instead of keeping zod everywhere.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]shared[\\/]src[\\/]/u.test(id) },
      // Everything the first page needs (React, the router, i18next, the app frame) in one chunk:
      // one request instead of ten, and one gzip stream compresses better than many small ones.
      output: { codeSplitting: { groups: [{ name: "app", tags: ["$initial"] }] } },
    },
  },
});
