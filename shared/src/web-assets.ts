/**
 * The web build's precompressed copies: which assets get them (web/vite.plugins.ts), under which
 * suffix per content coding, and so which the API sends as they are (api/src/middleware/web-app.ts)
 * and the bundle check measures (scripts/lib/bundle.ts).
 */
export const COMPRESSIBLE_ASSET = /\.(?:js|css|html|svg|json|txt|xml|webmanifest)$/u;
export const PRECOMPRESSED = { br: ".br", gzip: ".gz" } as const;
export type AssetEncoding = keyof typeof PRECOMPRESSED;

/**
 * The public pages the build renders to HTML once per language (web/src/entry-server.tsx); the API
 * sends the one of the language the `language` cookie names.
 */
export const PRERENDERED_PAGES = ["/", "/login", "/signup", "/admin-login"] as const;

/** Where the build writes a prerendered page, under the build's folder. */
export function prerenderedFile(language: string, page: string): string {
  return `pages/${language}${page === "/" ? "/index" : page}.html`;
}

/** The web app manifest of a language (its names, `lang` and `dir`); each page links its own. */
export function webManifestFile(language: string): string {
  return `manifest.${language}.webmanifest`;
}
