import type { Request, RequestHandler } from "express";
import { httpDuration, httpRequests } from "@storefront/shared/server";

/**
 * The route label is the matched pattern (`/api/images/history.php`, `/api/admin/users/:id`), never
 * the raw URL, so ids and query strings cannot blow up the label set. Unmatched API paths share
 * one label; everything outside /api is the web app.
 */
function routeLabel(req: Request): string {
  const pattern: unknown = req.route?.path;
  if (typeof pattern === "string") return `${req.baseUrl}${pattern}`;
  const url = req.originalUrl ?? req.url;
  if (Array.isArray(pattern) && pattern.length > 0) {
    // A route served at several paths (documented `.php` path and clean alias): the literal one
    // that matched, else the first (documented) one.
    const path = url.split("?")[0]!.slice(req.baseUrl.length);
    const literal = pattern.find((p) => p === path);
    return `${req.baseUrl}${String(literal ?? pattern[0])}`;
  }
  // Mounted sub-apps and static files (Swagger UI assets, the queue board): their mount path.
  if (req.baseUrl && req.baseUrl !== "/api") return `${req.baseUrl}/*`;
  return url.startsWith("/api/") || url === "/api" ? "/api/<unmatched>" : "<web>";
}

/** Counts and times every request once its response is sent (or the client went away). */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const stop = httpDuration.startTimer();
    let done = false;
    const record = () => {
      if (done) return;
      done = true;
      const labels = { method: req.method, route: routeLabel(req), status: String(res.statusCode) };
      httpRequests.inc(labels);
      stop(labels);
    };
    res.once("finish", record);
    res.once("close", record);
    next();
  };
}
