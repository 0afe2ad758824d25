/**
 * Compile-time checks, read by `npm run typecheck` (tsc -p web) and run by nothing: the image calls
 * and the Image AI screen's size picker take only the sizes the server accepts (shared IMAGE_SIZES).
 */
import type { ImageGeneration } from "../screens/ImageAI/useImageGeneration";
import type { EditImage, GenerateImage } from "./images";

const generate = { prompt: "a red circle", userId: "u1", agent: "picture-generator" } as const;
export const generateBody: GenerateImage = { ...generate, size: "1792x1024" };
// @ts-expect-error a size outside IMAGE_SIZES, which images/generate.php answers 400 for
export const unknownGenerateSize: GenerateImage = { ...generate, size: "512x512" };

const edit = { prompt: "brighter", strength: 0.5, userId: "u1" } as const;
export const editBody: Omit<EditImage, "image"> = { ...edit, size: "1080x1920" };
// @ts-expect-error a size outside IMAGE_SIZES, which images/edit.php answers 400 for
export const unknownEditSize: Omit<EditImage, "image"> = { ...edit, size: "640x480" };

export const picked: Parameters<ImageGeneration["setSize"]>[0] = "1024x1792";
// @ts-expect-error the size picker holds one of IMAGE_SIZES, not any string
export const unknownPicked: Parameters<ImageGeneration["setSize"]>[0] = "1024x768";
