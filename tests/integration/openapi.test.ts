import { describe, expect, it } from "vitest";
import { z } from "zod";
import { API_ROUTES } from "../../api/src/routes/index";
import { isRawResponse } from "../../api/src/routes/define";
import { adminClient, Client, newUser } from "../support/client";

/** Every call of SPEC §7 (method and path under /api), written out here independently of the generator. */
const SPEC_CALLS = [
  "POST /login-session-fix.php",
  "GET /session-check-simple.php",
  "POST /logout.php",
  "POST /signup.php",
  "GET /user/profile.php",
  "POST /user/update-profile.php",
  "GET /wallet/get.php",
  "POST /wallet/use.php",
  "POST /textai/chat.php",
  "POST /sms/ai-response.php",
  "GET /conversations/list.php",
  "GET /conversations/load.php",
  "POST /conversations/save.php",
  "POST /conversations/delete.php",
  "POST /images/generate.php",
  "POST /images/edit.php",
  "GET /images/history.php",
  "POST /images/delete.php",
  "POST /images/save.php",
  "POST /videos/generate.php",
  "POST /videos/ai-store-generator.php",
  "GET /videos/history.php",
  "GET /videos/get-history.php",
  "GET /videos/check-status.php",
  "POST /admin/login.php",
  "GET /admin/dashboard-data.php",
  "GET /admin/users.php",
  "PUT /admin/users.php",
  "GET /admin/sms-config.php",
  "PUT /admin/sms-config.php",
  "POST /admin/sms-config.php",
  "GET /admin/wallet-config.php",
  "PUT /admin/wallet-config.php",
  "GET /admin/wallet-packages-simple.php",
  "POST /admin/wallet-packages-simple.php",
  "PUT /admin/wallet-packages-simple.php",
  "DELETE /admin/wallet-packages-simple.php",
  "GET /admin/user-packages.php",
  "POST /admin/user-packages.php",
  "DELETE /admin/user-packages.php",
  "POST /admin/update-user-tier.php",
  "GET /sms/integration/config.php",
  "POST /sms/integration/config.php",
  "PUT /sms/integration/config.php",
  "GET /sms/integration/logs.php",
];

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, any>>;
  components: { securitySchemes: Record<string, any>; responses: Record<string, any>; schemas: Record<string, any> };
};

async function fetchDoc(): Promise<Doc> {
  const res = await (await adminClient()).get("/openapi.json");
  expect(res.status).toBe(200);
  return res.body as Doc;
}

describe("OpenAPI document at /api/openapi.json", () => {
  it("is OpenAPI 3.1 served under /api and lists every SPEC §7 call", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toMatch(/^3\.1\./u);
    expect(doc.servers[0]!.url).toBe("/api");
    const missing = SPEC_CALLS.filter((call) => {
      const [method, path] = call.split(" ") as [string, string];
      return !doc.paths[path]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  it("documents the error statuses of each call with the JSON error shape", async () => {
    const doc = await fetchDoc();
    const wallet = doc.paths["/wallet/use.php"]!.post;
    for (const status of ["400", "401", "402", "403"]) expect(wallet.responses[status], status).toBeDefined();
    expect(doc.paths["/signup.php"]!.post.responses["409"]).toBeDefined();
    expect(doc.paths["/login-session-fix.php"]!.post.responses["429"]).toBeDefined();
    expect(doc.paths["/admin/users.php"]!.get.responses["403"]).toBeDefined();
    expect(doc.components.responses.E402.content["application/json"].schema.$ref).toBe("#/components/schemas/Error");
    expect(doc.components.schemas.Error.properties).toMatchObject({ success: {}, error: {}, available: {} });
  });

  it("says the AI context is capped, not priced, on text chat, Doctor and SMS AI", async () => {
    const doc = await fetchDoc();
    for (const path of ["/textai/chat.php", "/sms/ai-response.php"]) {
      const body = doc.paths[path]!.post.requestBody.content["application/json"].schema;
      expect(body.properties.conversationHistory.description, path).toMatch(
        /Not priced: the server keeps only the newest \d+ \(at most \d+ characters/u,
      );
    }
  });

  it("generates request schemas from the zod schemas the server validates with", async () => {
    const doc = await fetchDoc();
    const signup = doc.paths["/signup.php"]!.post.requestBody.content["application/json"].schema;
    expect(signup.required).toEqual(expect.arrayContaining(["phone", "password"]));
    // PASSWORD_MIN from shared/src/schemas/auth.ts, not a hand-written copy.
    expect(signup.properties.password.minLength).toBe(6);
    const tier = doc.paths["/admin/update-user-tier.php"]!.post.requestBody.content["application/json"].schema;
    expect(tier.required).toEqual(expect.arrayContaining(["userId", "newCoins", "newTier"]));
    const profile = doc.paths["/user/profile.php"]!.get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(profile).toEqual(expect.arrayContaining(["query:id", "query:userId"]));
    const edit = doc.paths["/images/edit.php"]!.post.requestBody.content["multipart/form-data"].schema;
    expect(edit.properties.image).toBeDefined();
  });

  it("describes every success response with a schema, none a placeholder", async () => {
    const doc = await fetchDoc();
    const bare: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const success = Object.entries(op.responses as Record<string, any>).find(([status]) => status.startsWith("2"));
        const content = success?.[1].content as Record<string, { schema?: Record<string, unknown> }> | undefined;
        const json = content?.["application/json"]?.schema;
        if (!content || (json && !json.properties && !json.oneOf && !json.anyOf)) bare.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(bare).toEqual([]);
    const wallet = doc.paths["/wallet/get.php"]!.get.responses["200"].content["application/json"].schema;
    expect(wallet.properties.wallet).toBeDefined();
  });

  it("describes the webhook's signature scheme", async () => {
    const doc = await fetchDoc();
    const webhook = doc.paths["/sms/integration/webhook.php"]!.post;
    expect(webhook.description).toContain("HMAC-SHA256");
    expect(webhook.description).toContain("<X-Signature-Timestamp>.<raw request body>");
    expect(webhook.security).toEqual(
      expect.arrayContaining([{ webhookSignature: [], webhookTimestamp: [] }, { webhookToken: [] }]),
    );
    const schemes = doc.components.securitySchemes;
    expect(schemes.webhookSignature).toMatchObject({ in: "header", name: "X-Signature" });
    expect(schemes.webhookTimestamp).toMatchObject({ in: "header", name: "X-Signature-Timestamp" });
    expect(schemes.webhookToken).toMatchObject({ in: "query", name: "token" });
  });
});

describe("documented responses", () => {
  it("match what the server answers on every GET route of the table that needs no input", async () => {
    const user = await newUser();
    const admin = await adminClient();
    const checked: string[] = [];
    for (const route of API_ROUTES) {
      if (route.method !== "get" || isRawResponse(route.response) || route.paths[0].includes(":")) continue;
      const client = route.auth === "user" ? user.client : route.auth === "admin" ? admin : new Client();
      const res = await client.get(route.paths[0]);
      if (res.status >= 300) continue;
      const parsed = (route.response as z.ZodType).safeParse(res.body);
      expect(parsed.error?.issues.slice(0, 3), `GET ${route.paths[0]}`).toBeUndefined();
      checked.push(route.paths[0]);
    }
    expect(checked.length).toBeGreaterThan(15);
  });
});

describe("interactive viewer at /api/docs", () => {
  it("serves Swagger UI and its assets from this server, not a CDN", async () => {
    const client = await adminClient();
    const page = await client.get("/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/u);
    const html = page.body as string;
    expect(html).not.toMatch(/https?:\/\//u);
    const assets = [...html.matchAll(/(?:src|href)="\/api(\/docs\/[^"]+)"/gu)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      const res = await client.get(asset);
      expect(res.status, asset).toBe(200);
    }
    expect((await client.get("/docs/init.js")).body).toContain("/api/openapi.json");
    expect((await client.get("/docs/assets/no-such-file.js")).status).toBe(404);
  });
});

describe("API documentation access (API_DOCS_PUBLIC unset)", () => {
  it("answers 401 to visitors and subscribers for the document, the viewer and its assets", async () => {
    const { client: subscriber } = await newUser();
    for (const client of [new Client(), subscriber]) {
      for (const path of [
        "/openapi.json",
        "/docs",
        "/docs/init.js",
        "/docs/assets/swagger-ui.css",
        "/docs/assets/package.json",
      ]) {
        expect((await client.get(path)).status, path).toBe(401);
      }
    }
  });

  it("never serves swagger-ui-dist's package.json, README or source maps, even to an administrator", async () => {
    const admin = await adminClient();
    for (const path of [
      "/docs/assets/package.json",
      "/docs/assets/README.md",
      "/docs/assets/swagger-ui-bundle.js.map",
      "/docs/assets/index.html",
      "/docs/assets/%2e%2e/package.json",
    ]) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body), path).not.toMatch(/"version"/u);
    }
  });

  it("keeps Bull Board and its static files to administrators, without dependency files", async () => {
    const anon = new Client();
    const board = "/admin/queues/board";
    expect((await anon.get(`${board}/`)).status).toBe(401);
    expect((await anon.get(`${board}/static/favicon-32x32.png`)).status).toBe(401);
    const admin = await adminClient();
    expect((await admin.get(`${board}/static/favicon-32x32.png`)).status).toBe(200);
    for (const path of [`${board}/static/package.json`, `${board}/static/%2e%2e/package.json`, `${board}/package.json`]) {
      const res = await admin.get(path);
      expect(JSON.stringify(res.body), path).not.toMatch(/"dependencies"|"version"\s*:/u);
    }
  });
});
