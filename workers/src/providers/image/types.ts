import type { ImageSize } from "@storefront/shared";

export interface ImageGenerateRequest {
  /** The final prompt (agent template already applied). */
  prompt: string;
  size: ImageSize;
}

export interface ImageEditRequest {
  /** The uploaded picture (JPG, PNG or WEBP). */
  image: Buffer;
  prompt: string;
  /** 0.1-1: how far the result moves from the original. */
  strength: number;
  size: ImageSize;
}

/** Makes pictures; every result is a PNG of exactly the requested size. Throws ProviderError. */
export interface ImageProvider {
  name: string;
  generate(req: ImageGenerateRequest, signal?: AbortSignal): Promise<Buffer>;
  edit(req: ImageEditRequest, signal?: AbortSignal): Promise<Buffer>;
}
