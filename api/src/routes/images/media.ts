import { Router } from "express";
import { ownerOfKey } from "@storefront/shared/server";
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import { requireUser } from "../../middleware/auth";

/** Media kinds this route serves; avatars have their own call (user/avatar.php). */
const SERVED_KINDS = new Set(["images", "videos"]);

/**
 * GET /api/media/<kind>/<ownerId>/<name>: a stored image or video, to its owner only. Anyone
 * else (or a key that does not exist) gets the same 404, so keys reveal nothing.
 */
export function mediaRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get("/media/:kind/:owner/:name", requireUser, async (req, res) => {
    const { kind, owner, name } = req.params as { kind: string; owner: string; name: string };
    const key = `${kind}/${owner}/${name}`;
    if (!SERVED_KINDS.has(kind) || ownerOfKey(key) !== req.user!.id) throw notFound();
    const object = await ctx.storage.get(key);
    if (!object) throw notFound();
    res.setHeader("Content-Type", object.contentType);
    res.setHeader("Content-Length", String(object.size));
    res.setHeader("Cache-Control", "private, max-age=86400");
    res.setHeader("X-Content-Type-Options", "nosniff");
    object.stream.on("error", () => res.destroy());
    object.stream.pipe(res);
  });
  return router;
}
