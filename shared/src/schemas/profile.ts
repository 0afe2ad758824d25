import { z } from "zod";
import { COUNTRIES, LIMITS } from "../constants";
import { clientUserIdSchema, displayTextSchema } from "./common";

export const profileQuerySchema = z.object({
  id: clientUserIdSchema.optional(),
  userId: clientUserIdSchema.optional(),
});

export const updateProfileFieldsSchema = z.object({
  displayName: displayTextSchema("displayName", LIMITS.displayNameChars).optional(),
  country: z
    .union([
      z.literal(""),
      z
        .string()
        .trim()
        .toUpperCase()
        .pipe(z.enum(COUNTRIES, { error: "country must be a two-letter code from the list" })),
    ])
    .optional(),
});
export type UpdateProfileFields = z.infer<typeof updateProfileFieldsSchema>;

export const profileSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  phone: z.string(),
  displayName: z.string(),
  country: z.string(),
  /** URL of the avatar image, or null when none was uploaded. */
  avatar: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileUpdateResponseSchema = profileSchema.extend({ message: z.string() });
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>;

/** GET user/avatar.php?key=: the session user's own avatar file. */
export const avatarQuerySchema = z.object({ key: z.string().max(200) });
