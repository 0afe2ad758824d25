/**
 * docs/api/openapi.json as the route table generates it now, formatted as `npm run lint` (oxfmt
 * --check, with the repository's .oxfmtrc.json) expects. Written by scripts/openapi.ts; compared with
 * the committed file by scripts/lib/openapi-file.test.ts in the test run (a test in the run's test
 * workers, which have the route table loaded already, instead of a program of its own that compiled
 * the whole table again: 3.6 CPU-s a run).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { format, type FormatConfig } from "oxfmt";
import { API_ROUTES } from "../../api/src/routes/index";
import { buildOpenApiDocument } from "../../api/src/routes/openapi";

export const OPENAPI_FILE = "docs/api/openapi.json";

export async function generatedOpenApiText(root = process.cwd()): Promise<string> {
  const { ignorePatterns: _ignored, ...options } = JSON.parse(
    readFileSync(path.join(root, ".oxfmtrc.json"), "utf8"),
  ) as FormatConfig & { ignorePatterns?: string[] };
  const formatted = await format(path.join(root, OPENAPI_FILE), JSON.stringify(buildOpenApiDocument(API_ROUTES)), options);
  if (formatted.errors.length) throw new Error(`oxfmt could not format the document: ${formatted.errors[0]!.message}`);
  return formatted.code;
}
