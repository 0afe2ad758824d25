/**
 * Serves the built web app (web/dist) beside the API from one origin:
 * - the build's precompressed copies (`.br`, `.gz`, see web/vite.plugins.ts) to clients that accept
 *   them, with `Vary: Accept-Encoding`, so no request pays for compression;
 * - hashed files under /assets/ cached for a year (a new build has new names), everything else
 *   revalidated, so a deploy is picked up on the next visit;
 * - index.html for every client-side route, but a 404 for a missing /assets/ file (a stale tab
 *   asking for an old chunk must not get HTML back as JavaScript).
 */
import { stat } from "node:fs/promises";
import path from "node:path";
import express, { type Request, type Response, type NextFunction, type Router } from "express";

const COMPRESSIBLE = /\.(?:js|css|html|svg|json|txt|xml|webmanifest)$/u;
const ENCODINGS = { br: ".br", gzip: ".gz" } as const;
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The client's weight (q) for a content coding per RFC 9110 §12.5.3; `*` covers codings it does not list. */
function weight(acceptEncoding: string, coding: string): number {
  let wildcard = 0;
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/u.exec(p)?.[1]).find((v) => v !== undefined);
    const value = q === undefined ? 1 : Number(q);
    if (name.trim() === coding) return Number.isFinite(value) ? value : 0;
    if (name.trim() === "*") wildcard = Number.isFinite(value) ? value : 0;
  }
  return wildcard;
}

/** Brotli when the client takes it at least as gladly as gzip (it is smaller), else gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined): keyof typeof ENCODINGS | undefined {
  if (!acceptEncoding) return undefined;
  const br = weight(acceptEncoding, "br");
  const gzip = weight(acceptEncoding, "gzip");
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : undefined;
}

function appendVary(res: Response, field: string): void {
  const current = res.getHeader("Vary");
  const values = typeof current === "string" ? current.split(/\s*,\s*/u).filter(Boolean) : [];
  if (!values.some((v) => v.toLowerCase() === field.toLowerCase())) res.setHeader("Vary", [...values, field].join(", "));
}

export function webApp(dist: string): Router {
  const root = path.resolve(dist);
  const index = path.join(root, "index.html");
  const router = express.Router();

  // Picks the precompressed copy and rewrites the URL to it; express.static then serves it with
  // ETag, Last-Modified, conditional requests and ranges as for any file.
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !COMPRESSIBLE.test(req.path)) return next();
    appendVary(res, "Accept-Encoding");
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    if (!encoding) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = path.join(root, relative);
    if (!file.startsWith(root + path.sep) || !(await isFile(file + ENCODINGS[encoding]))) return next();
    res.type(path.extname(file));
    res.setHeader("Content-Encoding", encoding);
    req.url = req.url.replace(/^[^?]*/u, (pathname) => pathname + ENCODINGS[encoding]);
    next();
  });

  router.use(
    express.static(root, {
      index: false,
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader("Cache-Control", file.startsWith(path.join(root, "assets") + path.sep) ? IMMUTABLE : REVALIDATE);
      },
    }),
  );
  // Reached only when no file answered (a precompressed copy removed since the check included).
  router.use("/assets", (_req, res) => {
    res.removeHeader("Content-Encoding");
    res.status(404).type("text/plain").send("Not found");
  });
  router.get(/^(?!\/api(?:\/|$)).*/u, (_req, res) => {
    res.removeHeader("Content-Encoding");
    res.setHeader("Cache-Control", REVALIDATE);
    res.type("html").sendFile(index);
  });
  return router;
}
