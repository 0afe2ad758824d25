import type { Response } from "express";
import { ownerOfKey, type StoredObject } from "@storefront/shared/server";
import { notFound } from "../../errors";
import { defineRawRoute, TAGS } from "../define";

/** Media kinds this route serves; avatars have their own call (user/avatar.php). */
const SERVED_KINDS = new Set(["images", "videos"]);

/** The one byte range of a "bytes=a-b" header (or "a-", or "-n"), or null when absent or unusable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/u.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const start = match[1] === "" ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === "" || match[2] === "" ? size - 1 : Math.min(size - 1, Number(match[2]));
  return start <= end && start < size ? { start, end } : null;
}

async function readAll(object: StoredObject): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of object.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Ranges let browsers seek in a video (Safari will not play one without them). Stored media
 * is small (a few MB), so the range is cut from the whole file.
 */
async function sendRange(res: Response, object: StoredObject, range: { start: number; end: number }): Promise<void> {
  const bytes = await readAll(object);
  res.status(206);
  res.setHeader("Content-Range", `bytes ${range.start}-${range.end}/${object.size}`);
  res.setHeader("Content-Length", String(range.end - range.start + 1));
  res.end(bytes.subarray(range.start, range.end + 1));
}

/**
 * GET /api/media/<kind>/<ownerId>/<name>: a stored image or video, to its owner only. Anyone
 * else (or a key that does not exist) gets the same 404, so keys reveal nothing.
 */
export const mediaRoutes = [
  defineRawRoute({
    method: "get",
    paths: ["/media/:kind/:owner/:name"],
    tag: TAGS.images,
    summary: "A stored image or video of the session user (byte ranges supported)",
    auth: "user",
    response: { contentType: "application/octet-stream", description: "The stored file, or the requested byte range (206)" },
    errors: [401, 404, 416],
    raw: (ctx) => async (req, res) => {
      const { kind, owner, name } = req.params as { kind: string; owner: string; name: string };
      const key = `${kind}/${owner}/${name}`;
      if (!SERVED_KINDS.has(kind) || ownerOfKey(key) !== req.user!.id) throw notFound();
      const object = await ctx.storage.get(key);
      if (!object) throw notFound();
      res.setHeader("Content-Type", object.contentType);
      res.setHeader("Cache-Control", "private, max-age=86400");
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Accept-Ranges", "bytes");
      const rangeHeader = req.get("Range");
      const range = parseRange(rangeHeader, object.size);
      if (rangeHeader && !range) {
        object.stream.destroy();
        res.status(416).setHeader("Content-Range", `bytes */${object.size}`);
        res.end();
        return;
      }
      if (range) return sendRange(res, object, range);
      res.setHeader("Content-Length", String(object.size));
      object.stream.on("error", () => res.destroy());
      object.stream.pipe(res);
    },
  }),
];
