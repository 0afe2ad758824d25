import type { RequestHandler } from "express";
import multer, { MulterError } from "multer";
import sharp from "sharp";
import { MESSAGES } from "@storefront/shared";
import { badRequest, tooLarge } from "../errors";

/** One multipart file held in memory; a larger one is refused with `tooLargeMessage` (413). */
export function singleFile(field: string, maxBytes: number, tooLargeMessage: string): RequestHandler {
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: 1, fields: 20 } }).single(field);
  return (req, res, next) =>
    parse(req, res, (error: unknown) => {
      if (error instanceof MulterError && error.code === "LIMIT_FILE_SIZE") next(tooLarge(tooLargeMessage, field));
      else if (error instanceof MulterError || !error) next(error);
      // The multipart parser's own errors (no boundary, a truncated form, a bad part header) are the sender's.
      else next(badRequest("body: malformed multipart body", "body"));
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
): Promise<{ ext: string; width: number; height: number } | null> {
  if (!file) return null;
  if (file.size > maxBytes) throw tooLarge(tooLargeMessage, field);
  try {
    const meta = await sharp(file.buffer).metadata();
    const ext = FORMATS[meta.format as keyof typeof FORMATS];
    if (!ext || !meta.width || !meta.height) throw new Error("unsupported");
    return { ext, width: meta.width, height: meta.height };
  } catch {
    throw badRequest(MESSAGES.invalidImage, field);
  }
}
