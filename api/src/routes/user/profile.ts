import { randomUUID } from "node:crypto";
import {
  avatarQuerySchema,
  LIMITS,
  MESSAGES,
  profileQuerySchema,
  profileSchema,
  profileUpdateResponseSchema,
  updateProfileFieldsSchema,
} from "@storefront/shared";
import { User, ownerOfKey } from "@storefront/shared/server";
import { notFound } from "../../errors";
import { assertOwnUserId } from "../../middleware/auth";
import { checkImage } from "../../middleware/upload";
import { defineRoute, TAGS } from "../define";

interface ProfileDoc {
  phone?: string;
  releasedPhone?: string;
  displayName: string;
  country: string;
  avatarKey: string | null;
}

const projection = { phone: 1, releasedPhone: 1, displayName: 1, country: 1, avatarKey: 1 };

function profileBody(id: string, user: ProfileDoc) {
  const avatar = user.avatarKey ? `/api/user/avatar.php?key=${encodeURIComponent(user.avatarKey)}` : null;
  return {
    success: true as const,
    id,
    phone: user.phone ?? user.releasedPhone ?? "",
    displayName: user.displayName,
    country: user.country,
    avatar,
  };
}

export const profileRoutes = [
  defineRoute({
    method: "get",
    paths: ["/user/profile.php", "/user/profile"],
    tag: TAGS.account,
    summary: "The session user's profile (?id= or ?userId= must be the session's own)",
    auth: "user",
    query: profileQuerySchema,
    response: profileSchema,
    errors: [400, 401, 403, 404],
    handler: async ({ query, req }) => {
      const id = assertOwnUserId(req, query.id, query.userId);
      const user = await User.findById(id, projection).lean<ProfileDoc>();
      if (!user) throw notFound("User not found");
      return profileBody(id, user);
    },
  }),

  defineRoute({
    method: "post",
    paths: ["/user/update-profile.php", "/user/profile"],
    tag: TAGS.account,
    summary: "Update display name and country, optionally upload an avatar (image, under 5 MB)",
    auth: "user",
    body: updateProfileFieldsSchema,
    upload: { field: "avatar", maxBytes: LIMITS.avatarBytes, tooLargeMessage: MESSAGES.avatarTooLarge },
    response: profileUpdateResponseSchema,
    errors: [400, 401, 403, 413],
    handler: async ({ body: fields, file, req, ctx }) => {
      const id = req.user!.id;
      const image = await checkImage(file, LIMITS.avatarBytes, MESSAGES.avatarTooLarge, "avatar", LIMITS.avatarMaxSide);
      const update: Record<string, string> = {};
      if (fields.displayName !== undefined) update.displayName = fields.displayName;
      if (fields.country !== undefined) update.country = fields.country;
      let previousKey: string | null = null;
      if (image && file) {
        const key = `avatars/${id}/${randomUUID()}.${image.ext}`;
        await ctx.storage.put(key, file.buffer);
        update.avatarKey = key;
        previousKey = (await User.findById(id, { avatarKey: 1 }).lean<{ avatarKey: string | null }>())?.avatarKey ?? null;
      }
      const user = await User.findByIdAndUpdate(id, update, { returnDocument: "after", projection }).lean<ProfileDoc>();
      if (!user) throw notFound("User not found");
      if (previousKey && previousKey !== update.avatarKey) await ctx.storage.remove(previousKey);
      return { ...profileBody(id, user), message: "Profile updated successfully!" };
    },
  }),

  defineRoute({
    method: "get",
    paths: ["/user/avatar.php"],
    tag: TAGS.account,
    summary: "The session user's avatar image (the URL the profile names)",
    auth: "user",
    query: avatarQuerySchema,
    response: { contentType: "image/*", description: "The stored image (JPG, PNG or WEBP)" },
    errors: [400, 401, 404],
    handler: async ({ query, req, res, ctx }) => {
      if (ownerOfKey(query.key) !== req.user!.id) throw notFound();
      const object = await ctx.storage.get(query.key);
      if (!object) throw notFound();
      res.setHeader("Content-Type", object.contentType);
      res.setHeader("Content-Length", String(object.size));
      res.setHeader("Cache-Control", "private, max-age=86400");
      object.stream.pipe(res);
      return undefined;
    },
  }),
];
