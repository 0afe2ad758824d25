/** Pixel helpers every image provider shares, so each result is a PNG of exactly the asked size. */
import sharp from "sharp";
import { LIMITS } from "@storefront/shared";
import { ProviderError } from "../errors";

export interface Dimensions {
  width: number;
  height: number;
}

export function parseSize(size: string): Dimensions {
  const match = /^(\d+)x(\d+)$/u.exec(size);
  if (!match) throw new ProviderError(`bad image size ${size}`, { retryable: false });
  return { width: Number(match[1]), height: Number(match[2]) };
}

/**
 * The most pixels any decode here accepts: the API refuses edit uploads over
 * `LIMITS.imageEditMaxSide` per side, and this bounds the decode again should one get past it
 * (a queued job from before the limit, a provider answering a huge picture): sharp's default is
 * 268 Mpx, about 1 GB of RAM per decode.
 */
const MAX_INPUT_PIXELS = LIMITS.imageEditMaxSide * LIMITS.imageEditMaxSide;

/** Decodes any image sharp reads and returns it as raw RGBA at the given size (cover crop). */
export async function rawRgba(image: Buffer, { width, height }: Dimensions, what: string): Promise<Buffer> {
  try {
    return await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(width, height, { fit: "cover" })
      .ensureAlpha()
      .raw()
      .toBuffer();
  } catch (error) {
    throw new ProviderError(`${what} is not a readable image`, { retryable: false, cause: error });
  }
}

/** Re-encodes an image as a PNG of exactly the given size; an undecodable input is a permanent fault. */
export async function exactPng(image: Buffer, size: Dimensions, what: string): Promise<Buffer> {
  const raw = await rawRgba(image, size, what);
  return sharp(raw, { raw: { width: size.width, height: size.height, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * original × (1 − strength) + edited × strength, pixel by pixel: strength 1 is the edit itself,
 * 0.1 keeps nine tenths of the original. Applies the SPEC's strength to providers without one.
 */
export async function blend(original: Buffer, edited: Buffer, strength: number, size: Dimensions): Promise<Buffer> {
  const a = await rawRgba(original, size, "the uploaded image");
  const b = await rawRgba(edited, size, "the edited image");
  const s = Math.min(1, Math.max(0, strength));
  const out = Buffer.allocUnsafe(a.length);
  for (let i = 0; i < a.length; i++) out[i] = Math.round(a[i]! * (1 - s) + b[i]! * s);
  return sharp(out, { raw: { width: size.width, height: size.height, channels: 4 } })
    .png()
    .toBuffer();
}
