/**
 * Writes the OpenAPI document generated from the shared zod schemas to docs/api/openapi.json
 * (the running API serves the same document at /api/openapi.json and a viewer at /api/docs).
 * `--check` fails when the committed file differs from what the schemas generate now.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { format, resolveConfig } from "prettier";
import { buildOpenApiDocument, missingSchemas } from "@storefront/shared/server";

const target = path.resolve("docs/api/openapi.json");
// Formatted as `npm run lint` (prettier --check) expects.
const text = await format(JSON.stringify(buildOpenApiDocument()), {
  ...(await resolveConfig(target)),
  parser: "json",
  filepath: target,
});

if (process.argv.includes("--check")) {
  const current = existsSync(target) ? readFileSync(target, "utf8") : "";
  if (current !== text) {
    console.error(`${path.relative(process.cwd(), target)} is stale: run npx tsx scripts/openapi.ts`);
    process.exit(1);
  }
} else {
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
const missing = missingSchemas();
if (missing.length) console.log(`described minimally (no shared schema exported):\n  ${missing.join("\n  ")}`);
