import { createRequire } from "node:module";
import path from "node:path";
import express, { Router, type RequestHandler } from "express";
import { buildOpenApiDocument } from "@storefront/shared/server";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";

const require = createRequire(import.meta.url);

/** swagger-ui-dist's static files, served from node_modules: no CDN, works offline. */
function swaggerUiDir(): string {
  return path.dirname(require.resolve("swagger-ui-dist/package.json"));
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

/**
 * GET /api/openapi.json (generated from the shared zod schemas) and GET /api/docs (Swagger UI):
 * for administrators only, unless API_DOCS_PUBLIC=true (the map of every call helps attackers).
 */
export function docsRoutes(ctx: AppContext): Router {
  const router = Router();
  const access: RequestHandler = ctx.config.API_DOCS_PUBLIC ? (_req, _res, next) => next() : requireAdmin();
  router.use(["/openapi.json", "/docs"], access);
  // Built once per process: the schemas do not change while it runs.
  let document: Record<string, unknown> | undefined;

  router.get("/openapi.json", (_req, res) => {
    document ??= buildOpenApiDocument();
    res.setHeader("Cache-Control", "no-cache");
    res.json(document);
  });
  router.get("/docs", (_req, res) => {
    res.type("html").send(VIEWER_HTML);
  });
  router.get("/docs/init.js", (_req, res) => {
    res.type("application/javascript").send(INIT_JS);
  });
  router.use(
    "/docs/assets",
    (req, _res, next) => (VIEWER_ASSETS.has(req.path.slice(1)) ? next() : next("router")),
    express.static(swaggerUiDir(), { index: false, maxAge: "1d" }),
  );
  return router;
}
