import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedOpenApiText, OPENAPI_FILE } from "./openapi-file";

describe("the committed OpenAPI document", () => {
  it("is what the route table generates now (npx tsx scripts/openapi.ts rewrites it)", async () => {
    const committed = existsSync(path.resolve(OPENAPI_FILE)) ? readFileSync(path.resolve(OPENAPI_FILE), "utf8") : "";
    // Compared as text, so a stale file fails with a readable diff of the lines that moved.
    expect(committed, `${OPENAPI_FILE} is stale: run npx tsx scripts/openapi.ts`).toBe(await generatedOpenApiText());
  });
});
