import type { ImageAgentId } from "@storefront/shared";
import { get, post, request } from "./client";

/** A generated image as the screen keeps it (SPEC §3). */
export interface GeneratedImage {
  id: string;
  url: string;
  prompt: string;
  size: string;
  mode: "generate" | "edit";
  timestamp: string;
}

interface ImageReply {
  success?: boolean;
  imageUrl?: string;
  url?: string;
  id?: string | number;
  imageId?: string | number;
  error?: string;
}

function imageFrom(res: ImageReply, fallbackError: string): { url: string; id?: string } {
  const url = res.imageUrl ?? res.url;
  if (res.success === false || !url) throw new Error(res.error ?? fallbackError);
  const id = res.imageId ?? res.id;
  return { url, ...(id !== undefined ? { id: String(id) } : {}) };
}

export interface GenerateImage {
  prompt: string;
  size: string;
  userId: string;
  agent: ImageAgentId;
}

export async function generateImage(body: GenerateImage) {
  return imageFrom(await post<ImageReply>("images/generate.php", body), "Failed to generate image");
}

export interface EditImage {
  image: File;
  prompt: string;
  strength: number;
  size: string;
  userId: string;
}

export async function editImage(body: EditImage) {
  const form = new FormData();
  form.set("image", body.image);
  form.set("prompt", body.prompt);
  form.set("strength", String(body.strength));
  form.set("size", body.size);
  form.set("userId", body.userId);
  return imageFrom(await request<ImageReply>("images/edit.php", { method: "POST", body: form }), "Failed to generate image");
}

export interface HistoryImage {
  id: string;
  url: string;
  prompt?: string;
  size?: string;
  mode?: string;
  created_at?: string;
  timestamp?: string;
}

export async function imageHistory(userId: string): Promise<HistoryImage[]> {
  const res = await get<{ images?: (HistoryImage & { imageUrl?: string; image_url?: string })[] }>("images/history.php", {
    userId,
  });
  return (res.images ?? []).map((i) => ({ ...i, id: String(i.id), url: i.url ?? i.imageUrl ?? i.image_url ?? "" }));
}

export async function deleteImage(imageId: string): Promise<void> {
  const res = await post<{ success?: boolean; error?: string }>("images/delete.php", { imageId });
  if (res?.success === false) throw new Error(res.error ?? "Failed to delete image");
}

export const saveImage = (userId: string, imageData: GeneratedImage) => post("images/save.php", { userId, imageData });
