import { Router, type RequestHandler } from "express";
import type { AppContext } from "../context";
import { MESSAGES } from "@storefront/shared";
import { AppError, badRequest } from "../errors";
import { metricsAccess, requireAdmin, requireUser } from "../middleware/auth";
import { singleFile } from "../middleware/upload";
import { parseOrThrow } from "../middleware/validate";
import { isRawResponse, permissionsOf, type JsonRoute, type Route } from "./define";

/** The check that `route.auth` names; webhook routes verify their signature in the handler. */
function authFor(route: Route, ctx: AppContext): RequestHandler[] {
  switch (route.auth) {
    case "user":
      return [requireUser];
    case "admin":
      return [requireAdmin(...permissionsOf(route))];
    case "metrics":
      return [metricsAccess(ctx.config.METRICS_TOKEN)];
    case "none":
    case "webhook":
      return [];
  }
}

function jsonHandler(route: JsonRoute, ctx: AppContext): RequestHandler {
  return async (req, res) => {
    let body: unknown;
    // Multipart is parsed only by the routes that take a file; anywhere else it is refused, not ignored.
    if (route.body && !route.upload && req.is("multipart/form-data")) {
      throw new AppError(415, "unsupported_media_type", MESSAGES.jsonRequired, { field: "body" });
    }
    if (route.body) {
      const raw: unknown = req.body ?? {};
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw badRequest("body: must be a JSON object", "body");
      body = parseOrThrow(route.body, raw);
    }
    const query = route.query ? parseOrThrow(route.query, req.query) : undefined;
    if (route.status) res.status(route.status);
    const result = await route.handler({ body, query, file: req.file, req, res, ctx });
    if (result === undefined || res.headersSent) return;
    // Outside production every JSON answer is checked against its documented schema: drift is logged, never sent differently.
    if (ctx.config.NODE_ENV !== "production" && !isRawResponse(route.response) && res.statusCode < 300) {
      const checked = route.response.safeParse(result);
      if (!checked.success) {
        req.log?.warn(
          { route: `${route.method.toUpperCase()} ${route.paths[0]}`, issues: checked.error.issues.slice(0, 3) },
          "response does not match its schema",
        );
      }
    }
    res.json(result);
  };
}

/** A path Express matches only as itself (no parameters or patterns). */
const isLiteral = (path: string) => !/[:*?+()[\]{}]/u.test(path);

/**
 * Mounts `routes` on `router`: auth check, the route's own middleware, the upload parser, then
 * validation and the handler. `table` is every route of the API (raw routes may describe it).
 *
 * A request for a literal path as written in the table goes straight to a router holding that
 * path's routes alone, looked up by the path: Express would otherwise try each of the hundred-odd
 * routes in turn, on every call. The same routes stay in `router` too, for everything the lookup
 * does not take (other letter case, a trailing slash, paths with parameters) and for a method the
 * path has no route for, so what matches is what matched before.
 */
export function mountRoutes(router: Router, routes: readonly Route[], ctx: AppContext, table: readonly Route[] = routes): Router {
  const byPath = new Map<string, Router>();
  router.use((req, res, next) => {
    const exact = byPath.get(req.path);
    if (exact) exact(req, res, next);
    else next();
  });
  for (const route of routes) {
    const chain: RequestHandler[] = [...authFor(route, ctx), ...(route.middleware ?? [])];
    if (route.kind === "raw") {
      chain.push(route.raw(ctx, table));
      if (route.prefix) for (const path of route.paths) router.use(path, ...chain);
      else mount(router, byPath, route.method, route.paths, chain);
      continue;
    }
    if (route.upload) chain.push(singleFile(route.upload.field, route.upload.maxBytes, route.upload.tooLargeMessage));
    chain.push(jsonHandler(route, ctx));
    mount(router, byPath, route.method, route.paths, chain);
  }
  return router;
}

function mount(
  router: Router,
  byPath: Map<string, Router>,
  method: Route["method"],
  paths: readonly string[],
  chain: RequestHandler[],
) {
  router[method]([...paths], ...chain);
  for (const path of paths.filter(isLiteral)) {
    let exact = byPath.get(path);
    if (!exact) byPath.set(path, (exact = Router({ caseSensitive: true, strict: true })));
    exact[method](path, ...chain);
  }
}
