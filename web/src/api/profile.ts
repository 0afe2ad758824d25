import { get, request } from "./client";

export interface Profile {
  id: string;
  phone: string;
  displayName: string;
  country: string;
  avatar: string | null;
}

export const getProfile = (userId: string) => get<Profile>("user/profile.php", { id: userId });

export interface ProfileUpdate {
  displayName: string;
  country: string;
  avatar?: File | null;
}

export function updateProfile(update: ProfileUpdate): Promise<Profile> {
  const form = new FormData();
  form.set("displayName", update.displayName);
  form.set("country", update.country);
  if (update.avatar) form.set("avatar", update.avatar);
  return request<Profile>("user/update-profile.php", { method: "POST", body: form });
}
