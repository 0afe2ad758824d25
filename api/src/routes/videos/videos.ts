import {
  videoGenerateRequestSchema,
  videoGenerateResponseSchema,
  videoHistoryQuerySchema,
  videoHistoryResponseSchema,
  videoStatusQuerySchema,
  videoStatusResponseSchema,
} from "@storefront/shared";
import { assertOwnUserId } from "../../middleware/auth";
import { startVideo, videoHistory, videoStatus } from "../../services/videos";
import { defineRoute, TAGS } from "../define";

/** SPEC §7 videos/*: start (answers at once with video_id), check-status and both history paths. */
export const videoRoutes = [
  defineRoute({
    method: "post",
    paths: ["/videos/generate.php", "/videos/ai-store-generator.php", "/videos/generate"],
    tag: TAGS.videos,
    summary: "Start a video generation: answers at once with video_id; progress by polling check-status.php and pushes",
    auth: "user",
    body: videoGenerateRequestSchema,
    response: videoGenerateResponseSchema,
    errors: [400, 401, 402, 403, 429],
    handler: ({ body, req, ctx }) =>
      startVideo(ctx, body, {
        userId: assertOwnUserId(req, body.userId),
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
      }),
  }),

  defineRoute({
    method: "get",
    paths: ["/videos/check-status.php", "/videos/status"],
    tag: TAGS.videos,
    summary: "Status of one of the session user's videos",
    auth: "user",
    query: videoStatusQuerySchema,
    response: videoStatusResponseSchema,
    errors: [400, 401, 403, 404],
    handler: ({ query, req, ctx }) => videoStatus(ctx, req.user!.id, query.id),
  }),

  defineRoute({
    method: "get",
    paths: ["/videos/history.php", "/videos/get-history.php", "/videos/history"],
    tag: TAGS.videos,
    summary: "The session user's videos",
    auth: "user",
    query: videoHistoryQuerySchema,
    response: videoHistoryResponseSchema,
    errors: [400, 401, 403],
    handler: ({ query, req, ctx }) => videoHistory(ctx, assertOwnUserId(req, query.userId)),
  }),
];
