import type { ImageAgentId, ImageGenerateResponse, ImageHistoryResponse, ImageRecord } from "@storefront/shared";
import { get, post, request } from "./client";

/** A generated image as the screen keeps it (SPEC §3). */
export type GeneratedImage = ImageRecord;

function imageFrom(res: ImageGenerateResponse, fallbackError: string): { url: string; id: string } {
  if (!res?.imageUrl) throw new Error(fallbackError);
  return { url: res.imageUrl, id: res.image.id };
}

export interface GenerateImage {
  prompt: string;
  size: string;
  userId: string;
  agent: ImageAgentId;
}

export async function generateImage(body: GenerateImage) {
  return imageFrom(await post<ImageGenerateResponse>("images/generate.php", body), "Failed to generate image");
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
  return imageFrom(
    await request<ImageGenerateResponse>("images/edit.php", { method: "POST", body: form }),
    "Failed to generate image",
  );
}

export type HistoryImage = ImageRecord;

export async function imageHistory(userId: string): Promise<HistoryImage[]> {
  return (await get<ImageHistoryResponse>("images/history.php", { userId })).images;
}

/** Errors arrive as a non-2xx status (ApiError from the client). */
export async function deleteImage(imageId: string): Promise<void> {
  await post("images/delete.php", { imageId });
}

export const saveImage = (userId: string, imageData: GeneratedImage) => post("images/save.php", { userId, imageData });
