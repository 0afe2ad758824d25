import { randomUUID } from "node:crypto";
import { Router } from "express";
import { LIMITS, MESSAGES, profileQuerySchema, updateProfileFieldsSchema } from "@storefront/shared";
import { User, ownerOfKey } from "@storefront/shared/server";
import { z } from "zod";
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import { assertOwnUserId, requireUser } from "../../middleware/auth";
import { checkImage, singleFile } from "../../middleware/upload";
import { handle, parseOrThrow } from "../../middleware/validate";

interface ProfileDoc {
  phone: string;
  displayName: string;
  country: string;
  avatarKey: string | null;
}

function profileBody(id: string, user: ProfileDoc) {
  const avatar = user.avatarKey ? `/api/user/avatar.php?key=${encodeURIComponent(user.avatarKey)}` : null;
  return { success: true as const, id, phone: user.phone, displayName: user.displayName, country: user.country, avatar };
}

export function profileRoutes(ctx: AppContext): Router {
  const router = Router();
  const projection = { phone: 1, displayName: 1, country: 1, avatarKey: 1 };

  router.get(
    ["/user/profile.php", "/user/profile"],
    requireUser,
    handle(profileQuerySchema, "query", async (input, req) => {
      const id = assertOwnUserId(req, input.id, input.userId);
      const user = await User.findById(id, projection).lean<ProfileDoc>();
      if (!user) throw notFound("User not found");
      return profileBody(id, user);
    }),
  );

  router.post(
    ["/user/update-profile.php", "/user/profile"],
    requireUser,
    singleFile("avatar", LIMITS.avatarBytes, MESSAGES.avatarTooLarge),
    async (req, res) => {
      const fields = parseOrThrow(updateProfileFieldsSchema, req.body ?? {});
      const id = req.user!.id;
      const image = await checkImage(req.file, LIMITS.avatarBytes, MESSAGES.avatarTooLarge, "avatar", LIMITS.avatarMaxSide);
      const update: Record<string, string> = {};
      if (fields.displayName !== undefined) update.displayName = fields.displayName;
      if (fields.country !== undefined) update.country = fields.country;
      let previousKey: string | null = null;
      if (image && req.file) {
        const key = `avatars/${id}/${randomUUID()}.${image.ext}`;
        await ctx.storage.put(key, req.file.buffer);
        update.avatarKey = key;
        previousKey = (await User.findById(id, { avatarKey: 1 }).lean<{ avatarKey: string | null }>())?.avatarKey ?? null;
      }
      const user = await User.findByIdAndUpdate(id, update, { returnDocument: "after", projection }).lean<ProfileDoc>();
      if (!user) throw notFound("User not found");
      if (previousKey && previousKey !== update.avatarKey) await ctx.storage.remove(previousKey);
      res.json({ ...profileBody(id, user), message: "Profile updated successfully!" });
    },
  );

  router.get(
    "/user/avatar.php",
    requireUser,
    handle(z.object({ key: z.string().max(200) }), "query", async (input, req, res) => {
      if (ownerOfKey(input.key) !== req.user!.id) throw notFound();
      const object = await ctx.storage.get(input.key);
      if (!object) throw notFound();
      res.setHeader("Content-Type", object.contentType);
      res.setHeader("Content-Length", String(object.size));
      res.setHeader("Cache-Control", "private, max-age=86400");
      object.stream.pipe(res);
      return undefined;
    }),
  );

  return router;
}
