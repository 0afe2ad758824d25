import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { readFileSync } from "node:fs";
import { defineConfig, type Plugin } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The API the dev server forwards /api and /socket.io to (the built app is served by the API itself). */
const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? "3000"}`;

/**
 * Catalog sections the public pages (home, login, signup, access denied) need before first paint.
 * `virtual:i18n-public/<lang>` serves just these, so the home page does not download every screen's
 * texts; the full catalog follows in the background.
 */
const PUBLIC_SECTIONS = ["app", "common", "language", "nav", "home", "auth", "errors", "guard", "accessDenied"];
const PUBLIC_PREFIX = "virtual:i18n-public/";

function publicCatalogs(): Plugin {
  return {
    name: "storefront-public-catalogs",
    resolveId: (id) => (id.startsWith(PUBLIC_PREFIX) ? `\0${id}` : null),
    load(id) {
      if (!id.startsWith(`\0${PUBLIC_PREFIX}`)) return null;
      const language = id.slice(PUBLIC_PREFIX.length + 1);
      if (!/^[a-z]{2}$/u.test(language)) throw new Error(`unknown catalog ${language}`);
      const file = path.join(here, "../shared/src/i18n", `${language}.json`);
      this.addWatchFile(file);
      const full = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      const picked = Object.fromEntries(PUBLIC_SECTIONS.filter((k) => k in full).map((k) => [k, full[k]]));
      return `export default ${JSON.stringify(picked)};`;
    },
  };
}

export default defineConfig({
  root: here,
  plugins: [react(), publicCatalogs()],
  server: {
    host: "127.0.0.1",
    port: Number(process.env.WEB_PORT ?? process.env.PORT ?? 5173),
    proxy: {
      "/api": { target: apiTarget, changeOrigin: true },
      "/socket.io": { target: apiTarget, ws: true, changeOrigin: true },
    },
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
    },
  },
});
