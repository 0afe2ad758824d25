import {
  imageDeleteRequestSchema,
  imageEditRequestSchema,
  imageGenerateRequestSchema,
  imageGenerateResponseSchema,
  imageHistoryQuerySchema,
  imageHistoryResponseSchema,
  imageSaveRequestSchema,
  LIMITS,
  MESSAGES,
  successSchema,
} from "@storefront/shared";
import { badRequest } from "../../errors";
import { assertOwnUserId } from "../../middleware/auth";
import { checkImage } from "../../middleware/upload";
import { deleteImage, editImage, generateImage, imageHistory, saveImage } from "../../services/images";
import { defineRoute, TAGS } from "../define";

/** SPEC §7 images/*: generate and edit answer with the picture; history, save and delete. */
export const imageRoutes = [
  defineRoute({
    method: "post",
    paths: ["/images/generate.php", "/images/generate"],
    tag: TAGS.images,
    summary: "Generate an image with an agent (charged, queued, answered when the job completes)",
    auth: "user",
    body: imageGenerateRequestSchema,
    response: imageGenerateResponseSchema,
    errors: [400, 401, 402, 403, 429, 504],
    handler: ({ body, req, ctx }) =>
      generateImage(ctx, body, {
        userId: assertOwnUserId(req, body.userId),
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
        ...(req.arrivedAt ? { arrivedAt: req.arrivedAt } : {}),
      }),
  }),

  defineRoute({
    method: "post",
    paths: ["/images/edit.php", "/images/edit"],
    tag: TAGS.images,
    summary: "Edit an uploaded image (JPG/PNG/WEBP under 10 MB, at most 4096 px per side, strength 0.1-1)",
    auth: "user",
    body: imageEditRequestSchema,
    upload: { field: "image", maxBytes: LIMITS.imageEditBytes, tooLargeMessage: MESSAGES.imageTooLarge },
    response: imageGenerateResponseSchema,
    errors: [400, 401, 402, 403, 413, 429, 504],
    handler: async ({ body, file, req, ctx }) => {
      const userId = assertOwnUserId(req, body.userId);
      if (!file) throw badRequest(MESSAGES.imageRequired, "image");
      const image = await checkImage(file, LIMITS.imageEditBytes, MESSAGES.imageTooLarge, "image", LIMITS.imageEditMaxSide);
      return editImage(
        ctx,
        body,
        { buffer: file.buffer, ext: image!.ext },
        {
          userId,
          idempotencyKey: req.get("Idempotency-Key"),
          requestId: String(req.id),
          ...(req.arrivedAt ? { arrivedAt: req.arrivedAt } : {}),
        },
      );
    },
  }),

  defineRoute({
    method: "get",
    paths: ["/images/history.php", "/images/history"],
    tag: TAGS.images,
    summary: "The session user's images",
    auth: "user",
    query: imageHistoryQuerySchema,
    response: imageHistoryResponseSchema,
    errors: [400, 401, 403],
    handler: ({ query, req }) => imageHistory(assertOwnUserId(req, query.userId)),
  }),

  defineRoute({
    method: "post",
    paths: ["/images/save.php", "/images/save"],
    tag: TAGS.images,
    summary: "Save an image record to the session user's history",
    auth: "user",
    body: imageSaveRequestSchema,
    response: successSchema,
    errors: [400, 401, 403, 404],
    handler: ({ body, req, ctx }) => saveImage(ctx, assertOwnUserId(req, body.userId), body.imageData),
  }),

  defineRoute({
    method: "post",
    paths: ["/images/delete.php", "/images/delete"],
    tag: TAGS.images,
    summary: "Delete one of the session user's images",
    auth: "user",
    body: imageDeleteRequestSchema,
    response: successSchema,
    errors: [400, 401, 403, 404],
    handler: ({ body, req, ctx }) => deleteImage(ctx, assertOwnUserId(req, body.userId), body.imageId),
  }),
];
