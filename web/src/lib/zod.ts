/**
 * What `import … from "zod"` means in the web build (vite.config.ts aliases it here): zod itself,
 * told not to compile parsers with `new Function` before any module can create a schema. The
 * Content-Security-Policy (no eval, docs/security.md) refuses that probe and reports it as a
 * violation; form parsing does not need the speed. Being the importers' own dependency, this runs
 * first wherever zod is used, so zod stays out of the first page's JavaScript until a screen needs it.
 */
import { config } from "zod/v4";

config({ jitless: true });

export * from "zod/v4";
export { default } from "zod/v4";
