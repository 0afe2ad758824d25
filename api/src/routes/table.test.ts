import { describe, expect, it } from "vitest";
import { ADMIN_PERMISSIONS, UNPAID_VALUE, VALUE_PERMISSION } from "@storefront/shared";
import { z } from "zod";
import { defineRoute, grantsOf, isRawResponse, permissionsOf, TAGS } from "./define";
import { API_ROUTES } from "./index";
import { buildOpenApiDocument } from "./openapi";

const label = (route: (typeof API_ROUTES)[number]) => `${route.method.toUpperCase()} ${route.paths[0]}`;

describe("the route table", () => {
  it("does not compile a handler whose answer its response schema would not read", () => {
    const response = z.object({ success: z.literal(true), coins: z.number().int() });
    const base = {
      method: "get" as const,
      paths: ["/t"] as const,
      tag: TAGS.ops,
      summary: "t",
      auth: "none" as const,
      errors: [],
      response,
    };
    const right = defineRoute({ ...base, handler: () => ({ success: true as const, coins: 1 }) });
    // @ts-expect-error coins is a number in the schema
    defineRoute({ ...base, handler: () => ({ success: true as const, coins: "1" }) });
    // @ts-expect-error the schema's coins is missing
    defineRoute({ ...base, handler: async () => ({ success: true as const }) });
    expect(right.kind).toBe("json");
  });

  it("gives every route a real response: a zod schema, or a non-JSON content type for files and pages", () => {
    const missing = API_ROUTES.filter((route) =>
      isRawResponse(route.response) ? route.response.contentType.includes("json") : !(route.response instanceof z.ZodType),
    );
    expect(missing.map(label)).toEqual([]);
  });

  it("names one method and path once, permissions that exist, and a permission only on admin routes", () => {
    const seen = new Set<string>();
    for (const route of API_ROUTES) {
      for (const path of route.paths) {
        const key = `${route.method} ${path}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
        expect(path.startsWith("/"), key).toBe(true);
      }
      if (route.permission) {
        expect(route.auth, label(route)).toBe("admin");
        for (const permission of permissionsOf(route)) expect(ADMIN_PERMISSIONS, label(route)).toContain(permission);
      }
    }
  });

  it("asks coins:grant of every route that always gives value without payment (shared/src/value-paths.ts)", () => {
    for (const route of API_ROUTES) {
      const ways = grantsOf(route);
      if (ways.length === 0) continue;
      expect(route.auth, label(route)).toBe("admin");
      if (ways.some((way) => UNPAID_VALUE[way].when === "always"))
        expect(permissionsOf(route), label(route)).toContain(VALUE_PERMISSION);
    }
  });

  it("documents every route in the OpenAPI document", () => {
    const doc = buildOpenApiDocument(API_ROUTES) as { paths: Record<string, Record<string, unknown>> };
    for (const route of API_ROUTES) {
      const path = route.paths[0].replace(/:([A-Za-z0-9_]+)/gu, "{$1}");
      expect(doc.paths[path]?.[route.method], label(route)).toBeDefined();
    }
  });
});
