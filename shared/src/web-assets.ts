/**
 * The web build's precompressed copies: which assets get them (web/vite.plugins.ts), under which
 * suffix per content coding, and so which the API sends as they are (api/src/middleware/web-app.ts)
 * and the bundle check measures (scripts/lib/bundle.ts).
 */
export const COMPRESSIBLE_ASSET = /\.(?:js|css|html|svg|json|txt|xml|webmanifest)$/u;
export const PRECOMPRESSED = { br: ".br", gzip: ".gz" } as const;
export type AssetEncoding = keyof typeof PRECOMPRESSED;
