/**
 * Serves the built web app (web/dist) beside the API from one origin:
 * - the build's precompressed copies (`.br`, `.gz`, see web/vite.plugins.ts) to clients that accept
 *   them, with `Vary: Accept-Encoding`, so no request pays for compression;
 * - hashed files under /assets/ cached for a year (a new build has new names), everything else
 *   revalidated, so a deploy is picked up on the next visit;
 * - index.html for every client-side route, but a 404 for a missing /assets/ file (a stale tab
 *   asking for an old chunk must not get HTML back as JavaScript);
 * - the /assets/ files from memory once read: every page load asks for the same few dozen, and a
 *   hashed name's content never changes;
 * - the public pages the build rendered (web/vite.prerender.ts) in the language the `language`
 *   cookie names, with a policy that allows exactly their inline styles (by hash).
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import express, { type Request, type Response, type NextFunction, type Router } from "express";
import {
  COMPRESSIBLE_ASSET,
  PRECOMPRESSED,
  PRERENDERED_PAGES,
  prerenderedFile,
  type AssetEncoding,
  type Language,
} from "@storefront/shared";
import { contentSecurityPolicy } from "./security-headers";

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
export function chooseEncoding(acceptEncoding: string | undefined): AssetEncoding | undefined {
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

/** Headers the negotiation or the file set, wrong on any other answer (an error, a fallback page). */
const FILE_HEADERS = ["Content-Encoding", "Content-Type", "Cache-Control", "ETag", "Last-Modified", "Content-Range"];

function clearFileHeaders(res: Response): void {
  for (const header of FILE_HEADERS) res.removeHeader(header);
}

/** One /assets/ file as it is sent, read once. */
interface HeldAsset {
  body: Buffer;
  /** express.static's validators for the same file (a weak ETag of size and mtime), so either path answers alike. */
  etag: string;
  lastModified: string;
}

/** Bytes of /assets/ files a process keeps; past this, express.static reads them from disk each time. */
const ASSET_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * The file as it is sent; "disk" when it is larger than `room` bytes (express.static streams it);
 * undefined when it is missing or unreadable.
 */
async function readAsset(file: string, room: number): Promise<HeldAsset | "disk" | undefined> {
  try {
    const stats = await stat(file);
    if (!stats.isFile()) return undefined;
    if (stats.size > room) return "disk";
    return {
      body: await readFile(file),
      etag: `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`,
      lastModified: stats.mtime.toUTCString(),
    };
  } catch {
    return undefined; // express.static answers it (a large file streamed from disk)
  }
}

/**
 * The /assets/ files read so far, by path. A file is read once even when many ask at once; one that
 * is missing, or does not fit in what is left of `limit`, is not remembered (express.static serves
 * it). Files under /assets/ carry their content's hash in their name, so a deploy adds new names
 * instead of changing these.
 */
function assetMemory(limit: number): (file: string) => Promise<HeldAsset | "disk" | undefined> {
  const held = new Map<string, Promise<HeldAsset | "disk" | undefined>>();
  let bytes = 0;
  return async (file) => {
    const known = held.get(file);
    if (known) return known;
    const reading = readAsset(file, limit - bytes);
    held.set(file, reading);
    const asset = await reading;
    // Reads started together may pass the room check together: only those that still fit stay.
    if (asset && asset !== "disk" && bytes + asset.body.length <= limit) bytes += asset.body.length;
    else held.delete(file);
    return asset;
  };
}

/** The file under `root` a request path names, or undefined for a malformed or escaping path. */
function fileUnder(root: string, requestPath: string): string | undefined {
  try {
    const file = path.join(root, decodeURIComponent(requestPath));
    return file.startsWith(root + path.sep) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** The precompressed copy of `file` this request should get, if the client takes one and it exists. */
async function compressedCopy(req: Request, file: string): Promise<AssetEncoding | undefined> {
  const encoding = chooseEncoding(req.headers["accept-encoding"]);
  return encoding && (await isFile(file + PRECOMPRESSED[encoding])) ? encoding : undefined;
}

/** The language the `language` cookie names (web/src/i18n sets it with the stored choice), else English. */
function pageLanguage(cookieHeader: string | undefined): Language {
  return /(?:^|;\s*)language=ar(?:;|$)/u.test(cookieHeader ?? "") ? "ar" : "en";
}

/**
 * The Content-Security-Policy of a prerendered page: the usual one, plus the hash of each inline
 * <style> it carries (its first screen's CSS), so no other inline style runs. Kept per file and
 * modification time: a new build is seen at once, and an unchanged page is hashed once.
 */
function pagePolicies(): (file: string) => Promise<string | undefined> {
  const known = new Map<string, { mtimeMs: number; policy: string }>();
  return async (file) => {
    try {
      const { mtimeMs } = await stat(file);
      const held = known.get(file);
      if (held?.mtimeMs === mtimeMs) return held.policy;
      const html = await readFile(file, "utf8");
      const hashes = [...html.matchAll(/<style>([\s\S]*?)<\/style>/gu)].map(
        ([, css]) => `'sha256-${createHash("sha256").update(css!).digest("base64")}'`,
      );
      const policy = contentSecurityPolicy({ "style-src": hashes });
      known.set(file, { mtimeMs, policy });
      return policy;
    } catch {
      return undefined;
    }
  };
}

/** An HTML page (its precompressed copy when the client takes one), revalidated on each visit. */
async function sendPage(req: Request, res: Response, file: string): Promise<void> {
  clearFileHeaders(res);
  appendVary(res, "Accept-Encoding");
  res.setHeader("Cache-Control", REVALIDATE);
  res.type("html");
  const encoding = await compressedCopy(req, file);
  if (!encoding) return res.sendFile(file);
  res.setHeader("Content-Encoding", encoding);
  res.sendFile(file + PRECOMPRESSED[encoding]);
}

export function webApp(dist: string, memoryBytes = ASSET_MEMORY_BYTES): Router {
  const root = path.resolve(dist);
  const assets = path.join(root, "assets") + path.sep;
  const index = path.join(root, "index.html");
  const held = assetMemory(memoryBytes);
  const router = express.Router();

  // /assets/ files from memory. A range or a precondition (rare for scripts and styles) goes on
  // to express.static, which answers it from the file with the same validators.
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !req.path.startsWith("/assets/")) return next();
    const { range, "if-match": ifMatch, "if-unmodified-since": ifUnmodifiedSince } = req.headers;
    if (range || ifMatch || ifUnmodifiedSince) return next();
    const file = fileUnder(root, req.path);
    // A path that climbs out of /assets/ (`/assets/../index.html`) is not an immutable asset, and
    // a dotfile is not served at all (express.static answers both).
    if (
      !file?.startsWith(assets) ||
      file
        .slice(assets.length)
        .split(path.sep)
        .some((part) => part.startsWith("."))
    ) {
      return next();
    }
    const compressible = COMPRESSIBLE_ASSET.test(file);
    const encoding = compressible ? chooseEncoding(req.headers["accept-encoding"]) : undefined;
    const compressed = encoding ? await held(file + PRECOMPRESSED[encoding]) : undefined;
    const asset = compressed ?? (await held(file));
    if (!asset || asset === "disk") return next();
    if (compressible) appendVary(res, "Accept-Encoding");
    res.setHeader("Cache-Control", IMMUTABLE);
    res.setHeader("Accept-Ranges", "bytes");
    res.setHeader("ETag", asset.etag);
    res.setHeader("Last-Modified", asset.lastModified);
    // A 304 carries the validators, not the body's type or encoding (as express.static's).
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type(path.extname(file));
    if (compressed) res.setHeader("Content-Encoding", encoding!);
    res.setHeader("Content-Length", asset.body.length);
    res.end(req.method === "HEAD" ? undefined : asset.body);
  });

  // Picks the precompressed copy and rewrites the URL to it; express.static then serves it with
  // ETag, Last-Modified, conditional requests and ranges as for any file.
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !COMPRESSIBLE_ASSET.test(req.path)) return next();
    appendVary(res, "Accept-Encoding");
    const file = fileUnder(root, req.path);
    if (!file) return next();
    const encoding = await compressedCopy(req, file);
    if (!encoding) return next();
    res.type(path.extname(file));
    res.setHeader("Content-Encoding", encoding);
    req.url = req.url.replace(/^[^?]*/u, (pathname) => pathname + PRECOMPRESSED[encoding]);
    next();
  });

  router.use(
    express.static(root, {
      index: false,
      cacheControl: false,
      setHeaders(res, file) {
        res.setHeader("Cache-Control", file.startsWith(assets) ? IMMUTABLE : REVALIDATE);
      },
    }),
  );
  // A failed precondition (412), an unsatisfiable range (416) or a read error: the error answer
  // must not claim the file's encoding, type or validators.
  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    clearFileHeaders(res);
    next(error);
  });
  // Reached only when no file answered (a precompressed copy removed since it was looked up).
  router.use("/assets", (_req, res) => {
    clearFileHeaders(res);
    res.status(404).type("text/plain").send("Not found");
  });
  // The public pages, already rendered in the visitor's language: the first paint needs only this
  // answer. Revalidated on each visit, and kept apart per language by caches (Vary: Cookie).
  const policyOf = pagePolicies();
  const pages = new Set<string>(PRERENDERED_PAGES);
  router.get(/^\/[a-z-]*\/?$/u, async (req, res, next) => {
    const page = req.path.length > 1 ? req.path.replace(/\/$/u, "") : req.path;
    if (!pages.has(page)) return next();
    const file = path.join(root, prerenderedFile(pageLanguage(req.headers.cookie), page));
    const policy = await policyOf(file);
    // A build without the pages (or one being written): the app renders them in the browser.
    if (!policy) return next();
    appendVary(res, "Cookie");
    res.setHeader("Content-Security-Policy", policy);
    await sendPage(req, res, file);
  });
  // Every client-side route loads the app, revalidated on each visit so a deploy is seen at once.
  router.get(/^(?!\/api(?:\/|$)).*/u, (req, res) => sendPage(req, res, index));
  return router;
}
