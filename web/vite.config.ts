import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { precompress, publicCatalogs, treeShakeReactRouter } from "./vite.plugins";
import { OFFLINE_PAGE, prerender } from "./vite.prerender";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The API the dev server forwards /api and /socket.io to (the built app is served by the API itself). */
const catalogs = path.join(here, "../shared/src/i18n");
const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? "3000"}`;

export default defineConfig({
  root: here,
  plugins: [
    react(),
    publicCatalogs(catalogs),
    treeShakeReactRouter(),
    // The public pages as HTML (and the manifests, the offline page), before the service worker's
    // precache list is made and before every file is compressed.
    prerender(catalogs, [react(), publicCatalogs(catalogs)]),
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src",
      filename: "sw.ts",
      // src/pwa.ts registers it after the page has loaded; the manifests come from prerender().
      injectRegister: false,
      manifest: false,
      registerType: "prompt",
      injectManifest: {
        // The hashed assets, the offline page and what it and the manifests show. Not the
        // precompressed copies (the browser gets those by Content-Encoding) nor the pages
        // (each is per language and comes from the network).
        globPatterns: ["assets/**/*.{js,css,svg,png,woff2}", OFFLINE_PAGE, "offline.css", "icons/*.{png,svg}", "*.webmanifest"],
        globIgnores: ["**/*.gz", "**/*.br", "pages/**"],
        // The largest route chunk with its texts stays precached.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
    }),
    precompress(),
  ],
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
