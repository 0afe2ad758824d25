/**
 * Writes the OpenAPI document derived from the API's route table to docs/api/openapi.json
 * (the running API serves the same document at /api/openapi.json and a viewer at /api/docs).
 * `--check` fails when the committed file differs from what the route table generates now.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { format, type FormatConfig } from "oxfmt";
import { API_ROUTES } from "../api/src/routes/index";
import { buildOpenApiDocument } from "../api/src/routes/openapi";

const target = path.resolve("docs/api/openapi.json");
// Formatted as `npm run lint` (oxfmt --check, with the repository's .oxfmtrc.json) expects.
const { ignorePatterns: _ignored, ...options } = JSON.parse(
  readFileSync(path.resolve(".oxfmtrc.json"), "utf8"),
) as FormatConfig & {
  ignorePatterns?: string[];
};
const formatted = await format(target, JSON.stringify(buildOpenApiDocument(API_ROUTES)), options);
if (formatted.errors.length) throw new Error(`oxfmt could not format the document: ${formatted.errors[0]!.message}`);
const text = formatted.code;

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
