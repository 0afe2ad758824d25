import {
  avatarQuerySchema,
  LIMITS,
  MESSAGES,
  profileQuerySchema,
  profileSchema,
  profileUpdateResponseSchema,
  updateProfileFieldsSchema,
} from "@storefront/shared";
import { ownerOfKey } from "@storefront/shared/server";
import { notFound } from "../../errors";
import { assertOwnUserId } from "../../middleware/auth";
import { checkImage } from "../../middleware/upload";
import { profileOf, updateProfile } from "../../services/profile";
import { defineRoute, TAGS } from "../define";

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
    handler: ({ query, req }) => profileOf(assertOwnUserId(req, query.id, query.userId)),
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
      const image = await checkImage(file, LIMITS.avatarBytes, MESSAGES.avatarTooLarge, "avatar", LIMITS.avatarMaxSide);
      const avatar = image && file ? { buffer: file.buffer, ext: image.ext } : null;
      const profile = await updateProfile(ctx.storage, req.user!.id, fields, avatar);
      return { ...profile, message: "Profile updated successfully!" };
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
