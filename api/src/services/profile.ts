/**
 * The profile part of the user document (SPEC §2 Profile): display name, country and avatar. The
 * other parts each have their service: the phone (phone-proof.ts), the password (auth.ts), the
 * spending limits (spending.ts), the tier (wallet.ts), the active switch (admin-users.ts), the
 * balance (the ledger).
 */
import { randomUUID } from "node:crypto";
import type { UpdateProfileFields } from "@storefront/shared";
import { User, type Storage } from "@storefront/shared/server";
import { notFound } from "../errors";

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

/** The user's profile as user/profile.php answers it. */
export async function profileOf(id: string) {
  const user = await User.findById(id, projection).lean<ProfileDoc>();
  if (!user) throw notFound("User not found");
  return profileBody(id, user);
}

/**
 * Sets the fields given and, with an (already checked) image, stores it as the new avatar and
 * removes the one it replaces.
 */
export async function updateProfile(
  storage: Storage,
  id: string,
  fields: UpdateProfileFields,
  avatar: { buffer: Buffer; ext: string } | null,
) {
  const update: Record<string, string> = {};
  if (fields.displayName !== undefined) update.displayName = fields.displayName;
  if (fields.country !== undefined) update.country = fields.country;
  let previousKey: string | null = null;
  if (avatar) {
    const key = `avatars/${id}/${randomUUID()}.${avatar.ext}`;
    await storage.put(key, avatar.buffer);
    update.avatarKey = key;
    previousKey = (await User.findById(id, { avatarKey: 1 }).lean<{ avatarKey: string | null }>())?.avatarKey ?? null;
  }
  const user = await User.findByIdAndUpdate(id, update, { returnDocument: "after", projection }).lean<ProfileDoc>();
  if (!user) throw notFound("User not found");
  if (previousKey && previousKey !== update.avatarKey) await storage.remove(previousKey);
  return profileBody(id, user);
}
