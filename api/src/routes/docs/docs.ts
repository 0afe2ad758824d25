import { createRequire } from "node:module";
import path from "node:path";
import express, { type RequestHandler } from "express";
import { openApiDocumentSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { defineRawRoute, TAGS } from "../define";
import { buildOpenApiDocument } from "../openapi";

const resolveFromHere = createRequire(import.meta.url);

/** swagger-ui-dist's static files, served from node_modules: no CDN, works offline. */
function swaggerUiDir(): string {
  return path.dirname(resolveFromHere.resolve("swagger-ui-dist/package.json"));
}

const VIEWER_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>AI storefront API</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

// A separate script (not inline) so a strict Content-Security-Policy can forbid inline scripts.
const INIT_JS = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true, withCredentials: true });\n`;

/**
 * The only swagger-ui-dist files the viewer loads. Serving the whole folder also served its
 * package.json, README and source maps, which tell an attacker the exact dependency versions.
 */
const VIEWER_ASSETS = new Set(["swagger-ui.css", "swagger-ui-bundle.js"]);

const ACCESS = "Administrators only, unless API_DOCS_PUBLIC=true (the map of every call helps attackers).";

/** `handler` behind an admin session, unless the operator made the documentation public. */
function docsAccess(ctx: AppContext, handler: RequestHandler): RequestHandler {
  if (ctx.config.API_DOCS_PUBLIC) return handler;
  const check = requireAdmin();
  return (req, res, next) => {
    Promise.resolve(check(req, res, (error?: unknown) => (error ? next(error) : handler(req, res, next)))).catch(next);
  };
}

/** GET /api/openapi.json (derived from the route table) and GET /api/docs (Swagger UI). */
export const docsRoutes = [
  defineRawRoute({
    method: "get",
    paths: ["/openapi.json"],
    tag: TAGS.ops,
    summary: "This document",
    description: ACCESS,
    auth: "none",
    response: openApiDocumentSchema,
    errors: [401, 403],
    raw: (ctx, table) => {
      // Built once per process: the routes do not change while it runs.
      let document: Record<string, unknown> | undefined;
      return docsAccess(ctx, (_req, res) => {
        document ??= buildOpenApiDocument(table);
        res.setHeader("Cache-Control", "no-cache");
        res.json(document);
      });
    },
  }),
  defineRawRoute({
    method: "get",
    paths: ["/docs"],
    tag: TAGS.ops,
    summary: "Interactive viewer of this document (Swagger UI, served locally)",
    description: ACCESS,
    auth: "none",
    response: { contentType: "text/html", description: "The viewer page" },
    errors: [401, 403],
    raw: (ctx) =>
      docsAccess(ctx, (_req, res) => {
        res.type("html").send(VIEWER_HTML);
      }),
  }),
  defineRawRoute({
    method: "get",
    paths: ["/docs/init.js"],
    tag: TAGS.ops,
    summary: "The viewer's start script",
    description: ACCESS,
    auth: "none",
    response: { contentType: "application/javascript", description: "Script" },
    errors: [401, 403],
    raw: (ctx) =>
      docsAccess(ctx, (_req, res) => {
        res.type("application/javascript").send(INIT_JS);
      }),
  }),
  defineRawRoute({
    method: "get",
    paths: ["/docs/assets"],
    prefix: true,
    tag: TAGS.ops,
    summary: "The viewer's two static files (swagger-ui-dist's CSS and script, nothing else of the package)",
    description: ACCESS,
    auth: "none",
    response: { contentType: "application/octet-stream", description: "A static file" },
    errors: [401, 403, 404],
    raw: (ctx) => {
      const files = express.static(swaggerUiDir(), { index: false, maxAge: "1d" }) as RequestHandler;
      return docsAccess(ctx, (req, res, next) => (VIEWER_ASSETS.has(req.path.slice(1)) ? files(req, res, next) : next("router")));
    },
  }),
];
