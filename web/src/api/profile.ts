import type { z } from "zod";
import type { Profile as ProfileResponse, ProfileUpdateResponse, updateProfileFieldsSchema } from "@storefront/shared";
import { get, request } from "./client";

export type Profile = ProfileResponse;

export const getProfile = (userId: string) => get<Profile>("user/profile.php", { id: userId });

/** user/update-profile.php's multipart form: the text fields of shared updateProfileFieldsSchema, both given, and the picture. */
export type ProfileUpdate = Required<z.input<typeof updateProfileFieldsSchema>> & { avatar?: File | null };

export function updateProfile(update: ProfileUpdate): Promise<ProfileUpdateResponse> {
  const form = new FormData();
  form.set("displayName", update.displayName);
  form.set("country", update.country);
  if (update.avatar) form.set("avatar", update.avatar);
  return request<ProfileUpdateResponse>("user/update-profile.php", { method: "POST", body: form });
}
