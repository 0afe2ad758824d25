/**
 * Security headers on every answer of the API and the web app it serves (docs/security.md).
 * docker/nginx.conf sends the same policy for the files it serves itself; a unit test keeps the
 * two equal.
 */
import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * No inline script or style anywhere (the build emits none, Swagger UI starts from a file);
 * data:/blob: images for avatars and edit previews read in the browser; the socket is same-origin.
 */
const CSP_DIRECTIVES: Record<string, string[]> = {
  "default-src": ["'self'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  "img-src": ["'self'", "data:", "blob:"],
  "media-src": ["'self'", "blob:"],
  "font-src": ["'self'"],
  "connect-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
};

/** The policy with `extra` sources added to some directives (the prerendered pages' inline styles). */
export function contentSecurityPolicy(extra: Record<string, string[]> = {}): string {
  return Object.entries(CSP_DIRECTIVES)
    .map(([name, values]) => `${name} ${[...values, ...(extra[name] ?? [])].join(" ")}`)
    .join("; ");
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export function securityHeaders(): RequestHandler {
  return helmet({
    // Exactly our directives: helmet's defaults add upgrade-insecure-requests, which breaks a
    // plain-http deployment behind no proxy (and the test stack).
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "same-origin" },
    // HSTS belongs to whoever terminates TLS (the proxy); over plain http it would mean nothing.
    strictTransportSecurity: false,
  });
}
