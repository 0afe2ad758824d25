import { Router } from "express";
import { videoGenerateRequestSchema, videoHistoryQuerySchema, videoStatusQuerySchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { assertOwnUserId, requireUser } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { startVideo, videoHistory, videoStatus } from "../../services/videos";

/** SPEC §7 videos/*: start (answers at once with video_id), check-status and both history paths. */
export function videoRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post(
    ["/videos/generate.php", "/videos/ai-store-generator.php", "/videos/generate"],
    requireUser,
    handle(videoGenerateRequestSchema, "body", (input, req) =>
      startVideo(ctx, input, {
        userId: assertOwnUserId(req, input.userId),
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
      }),
    ),
  );

  router.get(
    ["/videos/check-status.php", "/videos/status"],
    requireUser,
    handle(videoStatusQuerySchema, "query", (input, req) => videoStatus(ctx, req.user!.id, input.id)),
  );

  router.get(
    ["/videos/history.php", "/videos/get-history.php", "/videos/history"],
    requireUser,
    handle(videoHistoryQuerySchema, "query", (input, req) => videoHistory(ctx, assertOwnUserId(req, input.userId))),
  );

  return router;
}
