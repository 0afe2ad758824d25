/**
 * Cross-site request protection for calls the session cookie authorises (docs/security.md).
 * Two independent checks on every state-changing call:
 * - a browser names the page that made the request in Origin (or Referer): a foreign one is a 403;
 * - the body must be JSON (multipart only where a route takes a file, see validate.ts): an HTML
 *   form on another site cannot send JSON, and a script there cannot without a CORS preflight,
 *   which this API never grants.
 * Calls without either header come from no browser page (curl, a gateway) and carry no ambient
 * cookie from a victim, so they pass the origin check.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";
import { MESSAGES } from "@storefront/shared";
import type { Config } from "@storefront/shared/server";
import { AppError, forbidden } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Origins allowed besides the request's own host: ALLOWED_ORIGINS and PUBLIC_BASE_URL. */
export function configuredOrigins(config: Pick<Config, "ALLOWED_ORIGINS" | "PUBLIC_BASE_URL">): Set<string> {
  const origins = new Set(config.ALLOWED_ORIGINS);
  if (config.PUBLIC_BASE_URL) origins.add(new URL(config.PUBLIC_BASE_URL).origin);
  return origins;
}

/** The origin of the page that sent the request: Origin, else Referer's origin; undefined when neither. */
export function senderOrigin(headers: IncomingHttpHeaders): string | undefined {
  const origin = headers.origin;
  if (typeof origin === "string" && origin !== "") return origin;
  const referer = headers.referer;
  if (typeof referer === "string" && referer !== "") return URL.canParse(referer) ? new URL(referer).origin : "null";
  return undefined;
}

/**
 * Whether `origin` may act with the user's cookie: a configured origin, or the app's own (same
 * host as the request, which the browser sets and a page cannot forge). "null" (sandboxed
 * frames, file:, a bad Referer) is always foreign.
 */
export function isAllowedOrigin(origin: string, host: string | undefined, allowed: Set<string>): boolean {
  if (allowed.has(origin)) return true;
  if (!host || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === "http:" || url.protocol === "https:") && url.host === host.toLowerCase();
}

export function crossSiteGuard(config: Config): RequestHandler {
  const allowed = configuredOrigins(config);
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = senderOrigin(req.headers);
    if (origin !== undefined && !isAllowedOrigin(origin, req.headers.host, allowed)) throw forbidden(MESSAGES.crossSiteRefused);
    // An empty body (Content-Length: 0, as fetch sends for a PUT without one) carries nothing to forge.
    const empty = req.headers["content-length"] === "0";
    if (!empty && req.is(["application/json", "multipart/form-data"]) === false) {
      throw new AppError(415, "unsupported_media_type", MESSAGES.jsonRequired, { field: "body" });
    }
    next();
  };
}
