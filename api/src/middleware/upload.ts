import type { RequestHandler } from "express";
import multer, { MulterError } from "multer";
import sharp from "sharp";
import { MESSAGES } from "@storefront/shared";
import { badRequest, tooLarge } from "../errors";

/**
 * One multipart file held in memory; a larger one is refused with `tooLargeMessage` (413). A body
 * the multipart parser cannot read (no boundary, a cut-off or garbled part) is the client's
 * fault: 400, never a 500.
 */
export function singleFile(field: string, maxBytes: number, tooLargeMessage: string): RequestHandler {
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: 1, fields: 20 } }).single(field);
  return (req, res, next) =>
    parse(req, res, (error: unknown) => {
      if (!error) next();
      else if (error instanceof MulterError && error.code === "LIMIT_FILE_SIZE") next(tooLarge(tooLargeMessage, field));
      else if (error instanceof MulterError) next(badRequest(`${error.field ?? field}: ${error.message}`, error.field ?? field));
      else next(badRequest("body: malformed multipart form", "body"));
    });
}

const FORMATS = { jpeg: "jpg", png: "png", webp: "webp" } as const;

/**
 * Checks an uploaded file really is a JPG, PNG or WEBP image (by its bytes, not its name) and
 * under the limit; returns the file extension to store it with.
 */
export async function checkImage(
  file: Express.Multer.File | undefined,
  maxBytes: number,
  tooLargeMessage: string,
  field: string,
  maxSide?: number,
): Promise<{ ext: string; width: number; height: number } | null> {
  if (!file) return null;
  if (file.size > maxBytes) throw tooLarge(tooLargeMessage, field);
  let image: { ext: string; width: number; height: number };
  try {
    // Only the header is read, never the pixels, so no pixel limit here: sharp's own one would
    // refuse a 16000 px square as "not a valid image" before the side check below could name it.
    const meta = await sharp(file.buffer, { limitInputPixels: false }).metadata();
    const ext = FORMATS[meta.format as keyof typeof FORMATS];
    if (!ext || !meta.width || !meta.height) throw new Error("unsupported");
    image = { ext, width: meta.width, height: meta.height };
  } catch {
    throw badRequest(MESSAGES.invalidImage, field);
  }
  if (maxSide && (image.width > maxSide || image.height > maxSide)) {
    throw badRequest(`${field}: image must be at most ${maxSide} x ${maxSide} pixels`, field);
  }
  return image;
}
