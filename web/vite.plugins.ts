/**
 * Build plugins of the web app: the public text catalogs, tree-shaking help for react-router and
 * precompressed copies of every asset. docs/performance.md ("Web bundle") has the figures.
 */
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip as zlibGzip, constants as zlibConstants } from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";
import { initialFiles, readManifest } from "../scripts/lib/manifest";
import type { Plugin } from "vite";
import { COMPRESSIBLE_ASSET, PRECOMPRESSED } from "../shared/src/web-assets";

const require = createRequire(import.meta.url);

/**
 * Parts of a catalog the public pages need before first paint, each served as a chunk of its own,
 * `virtual:i18n-<part>/<lang>`, so the home page does not download every screen's texts; the full
 * catalog follows in the background.
 * - `public`: what every public page shows (home, access denied, the language switch, the guard's
 *   redirect notice).
 * - `sign-in`: the sign-in and sign-up forms' texts (with the phone field's), asked for by those
 *   two pages only (routes.tsx), not by the home page.
 * Of a section a page shows only a few texts of at once (`keys`), just those: the error texts a
 * refused sign-in or sign-up shows come after a round trip to the API, so the login and signup
 * screens wait for the full catalog then (`errorMessageLoaded`); the guard's notice is shown at once.
 */
const CATALOG_PARTS: Record<string, { sections: string[]; keys?: Record<string, string[]> }> = {
  public: {
    sections: ["app", "common", "language", "nav", "home", "guard", "accessDenied"],
    keys: { errors: ["textLoginRequired"] },
  },
  "sign-in": { sections: ["auth"] },
};
const CATALOG_PART = /^virtual:i18n-([a-z-]+)\/([a-z]{2})$/u;

export function publicCatalogs(catalogDir: string): Plugin {
  return {
    name: "storefront-public-catalogs",
    resolveId: (id) => (CATALOG_PART.test(id) ? `\0${id}` : null),
    async load(id) {
      const [, part, language] = CATALOG_PART.exec(id.replace(/^\0/u, "")) ?? [];
      const spec = part ? CATALOG_PARTS[part] : undefined;
      if (!id.startsWith("\0") || !spec || !language) return null;
      const file = path.join(catalogDir, `${language}.json`);
      this.addWatchFile(file);
      const full = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
      const picked = Object.fromEntries(spec.sections.filter((k) => k in full).map((k) => [k, full[k]]));
      for (const [section, keys] of Object.entries(spec.keys ?? {})) {
        const texts = (full[section] ?? {}) as Record<string, unknown>;
        picked[section] = Object.fromEntries(keys.filter((k) => k in texts).map((k) => [k, texts[k]]));
      }
      return `export default ${JSON.stringify(picked)};`;
    },
  };
}

/**
 * react-router ships one module for every mode (declarative, data, framework). Two things in it keep
 * code alive that this app never calls: `X.displayName = "..."` statements (a property write is a side
 * effect, so `Link`, `Form`, `NavLink` and their prefetch and form-submission helpers stay), and
 * `React.forwardRef(...)` / `React.createContext(...)` calls without a pure annotation. In a production
 * build this drops the display names (React DevTools shows the variable name instead) and marks those
 * calls pure, so the bundler keeps only what the routes use: about 4 KB gzipped off every page.
 */
export function treeShakeReactRouter(): Plugin {
  // react-router's package exports name only its development build (ENABLE_DEV_WARNINGS on: the
  // "Hey developer" error page, path and navigation warnings); the production build beside it is
  // the same code with them off.
  const production = path.join(path.dirname(require.resolve("react-router/package.json")), "dist/production");
  const entries: Record<string, string> = {
    "react-router": path.join(production, "index.mjs"),
    "react-router/dom": path.join(production, "dom-export.mjs"),
  };
  return {
    name: "storefront-tree-shake-react-router",
    apply: "build",
    // Before vite's own resolver, which would follow the package's exports.
    enforce: "pre",
    resolveId: (source) => entries[source] ?? null,
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]react-router[\\/]dist[\\/]/u.test(id)) return null;
      return {
        code: code
          .replace(/^\w+\.displayName = "[^"\n]*";$/gmu, "")
          .replace(/= (React\d*\.(?:forwardRef|createContext))\(/gu, "= /* @__PURE__ */ $1("),
        map: null,
      };
    },
  };
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else yield file;
  }
}

/**
 * Writes `<file>.gz` (gzip that any client reads: zopfli, about 3% smaller than zlib's best, for the
 * first paint's files) and `<file>.br` (brotli, quality 11) beside every compressible asset, once at
 * build time. The API and
 * nginx send these as they are (Content-Encoding negotiated from Accept-Encoding), so no request
 * pays for compression and the bytes the budget check measures are the bytes users download.
 */
export function precompress(): Plugin {
  let outDir = "";
  return {
    name: "storefront-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After the pages are rendered and the service worker is written (their closeBundle hooks).
    closeBundle: {
      sequential: true,
      order: "post",
      async handler() {
        const brotli = promisify(brotliCompress);
        const zlib = promisify(zlibGzip);
        // Zopfli (the smallest gzip, 15 iterations) for what the home page loads before first paint, the
        // budget's bytes; zlib's best level for the chunks loaded later: 3% larger, in 0.05 s instead of
        // 12 s of zopfli. Clients that take brotli (most) get the brotli copy of everything.
        const firstPaint = new Set([...initialFiles(readManifest(outDir))].map((file) => path.join(outDir, file)));
        // One file at a time: the zopfli WebAssembly module is not re-entrant.
        for await (const file of filesUnder(outDir)) {
          if (!COMPRESSIBLE_ASSET.test(file)) continue;
          const raw = await readFile(file);
          const gzip = firstPaint.has(file)
            ? await gzipAsync(raw, { numiterations: 15 })
            : await zlib(raw, { level: zlibConstants.Z_BEST_COMPRESSION });
          const br = await brotli(raw, {
            params: {
              [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          });
          // A copy no smaller than the file is not worth sending; one left from an earlier build goes.
          for (const [suffix, copy] of [[PRECOMPRESSED.gzip, gzip] as const, [PRECOMPRESSED.br, br] as const]) {
            if (copy.length < raw.length) await writeFile(file + suffix, copy);
            else await rm(file + suffix, { force: true });
          }
        }
      },
    },
  };
}
