import type { z } from "zod";
import type {
  imageDeleteRequestSchema,
  imageEditRequestSchema,
  imageGenerateRequestSchema,
  ImageGenerateResponse,
  ImageHistoryResponse,
  ImageRecord,
  imageSaveRequestSchema,
} from "@storefront/shared";
import { get, post, request } from "./client";

/** A generated image as the screen keeps it (SPEC §3). */
export type GeneratedImage = ImageRecord;

function imageFrom(res: ImageGenerateResponse, fallbackError: string): { url: string; id: string } {
  if (!res?.imageUrl) throw new Error(fallbackError);
  return { url: res.imageUrl, id: res.image.id };
}

/**
 * images/generate.php's body (shared imageGenerateRequestSchema), every field given: `size` is one
 * of the schema's IMAGE_SIZES, so a size the server would refuse does not compile.
 */
export type GenerateImage = Required<z.input<typeof imageGenerateRequestSchema>>;

export async function generateImage(body: GenerateImage) {
  return imageFrom(await post<ImageGenerateResponse>("images/generate.php", body), "Failed to generate image");
}

/** images/edit.php's multipart form: the file, and the text fields of shared imageEditRequestSchema (`size` as for GenerateImage). */
export type EditImage = Required<Pick<z.input<typeof imageEditRequestSchema>, "prompt" | "strength" | "size" | "userId">> & {
  image: File;
};

export async function editImage(body: EditImage) {
  const form = new FormData();
  form.set("image", body.image);
  form.set("prompt", body.prompt);
  form.set("strength", String(body.strength));
  form.set("size", body.size);
  form.set("userId", String(body.userId));
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
  await post("images/delete.php", { imageId } satisfies z.input<typeof imageDeleteRequestSchema>);
}

export const saveImage = (userId: string, imageData: GeneratedImage) =>
  post("images/save.php", { userId, imageData } satisfies z.input<typeof imageSaveRequestSchema>);
