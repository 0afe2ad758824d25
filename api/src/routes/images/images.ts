import { Router } from "express";
import {
  imageDeleteRequestSchema,
  imageEditRequestSchema,
  imageGenerateRequestSchema,
  imageHistoryQuerySchema,
  imageSaveRequestSchema,
  LIMITS,
  MESSAGES,
} from "@storefront/shared";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { assertOwnUserId, requireUser } from "../../middleware/auth";
import { checkImage, singleFile } from "../../middleware/upload";
import { handle, parseOrThrow } from "../../middleware/validate";
import { deleteImage, editImage, generateImage, imageHistory, saveImage } from "../../services/images";

/** SPEC §7 images/*: generate and edit answer with the picture; history, save and delete. */
export function imageRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post(
    ["/images/generate.php", "/images/generate"],
    requireUser,
    handle(imageGenerateRequestSchema, "body", (input, req) =>
      generateImage(ctx, input, {
        userId: assertOwnUserId(req, input.userId),
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
      }),
    ),
  );

  router.post(
    ["/images/edit.php", "/images/edit"],
    requireUser,
    singleFile("image", LIMITS.imageEditBytes, MESSAGES.imageTooLarge),
    async (req, res) => {
      const input = parseOrThrow(imageEditRequestSchema, req.body ?? {});
      const userId = assertOwnUserId(req, input.userId);
      if (!req.file) throw badRequest(MESSAGES.imageRequired, "image");
      const image = await checkImage(req.file, LIMITS.imageEditBytes, MESSAGES.imageTooLarge, "image");
      res.json(
        await editImage(
          ctx,
          input,
          { buffer: req.file.buffer, ext: image!.ext },
          {
            userId,
            idempotencyKey: req.get("Idempotency-Key"),
            requestId: String(req.id),
          },
        ),
      );
    },
  );

  router.get(
    ["/images/history.php", "/images/history"],
    requireUser,
    handle(imageHistoryQuerySchema, "query", (input, req) => imageHistory(assertOwnUserId(req, input.userId))),
  );

  router.post(
    ["/images/save.php", "/images/save"],
    requireUser,
    handle(imageSaveRequestSchema, "body", (input, req) => saveImage(assertOwnUserId(req, input.userId), input.imageData)),
  );

  router.post(
    ["/images/delete.php", "/images/delete"],
    requireUser,
    handle(imageDeleteRequestSchema, "body", (input, req) => deleteImage(ctx, assertOwnUserId(req, input.userId), input.imageId)),
  );

  return router;
}
