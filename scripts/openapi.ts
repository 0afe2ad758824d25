/**
 * Writes the OpenAPI document derived from the API's route table to docs/api/openapi.json
 * (the running API serves the same document at /api/openapi.json and a viewer at /api/docs).
 * `--check` fails when the committed file differs from what the route table generates now (the test
 * run checks the same in scripts/lib/openapi-file.test.ts).
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { generatedOpenApiText, OPENAPI_FILE } from "./lib/openapi-file";

const target = path.resolve(OPENAPI_FILE);
const text = await generatedOpenApiText();

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
