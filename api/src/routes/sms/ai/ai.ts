import { Router } from "express";
import { smsAiRequestSchema, smsConversationsQuerySchema, smsLearnedResponseRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../../context";
import { assertOwnUserId, requireUser } from "../../../middleware/auth";
import { handle } from "../../../middleware/validate";
import { learnedResponse, smsAiReply, smsConversations } from "../../../services/sms-ai";

/**
 * The SMS AI screen (SPEC §2): the backend AI send of SPEC §7, and the two calls its notes name
 * without paths (docs/decisions.md): the conversations lookup and the learned-response lookup.
 */
export function smsAiRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post(
    ["/sms/ai-response.php", "/sms/ai-response"],
    requireUser,
    handle(smsAiRequestSchema, "body", (input, req) =>
      smsAiReply(ctx, input, {
        userId: assertOwnUserId(req, input.userId),
        phone: req.user!.phone,
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
      }),
    ),
  );

  router.get(
    ["/sms/conversations.php", "/sms/conversations"],
    requireUser,
    handle(smsConversationsQuerySchema, "query", (input, req) => smsConversations(assertOwnUserId(req, input.userId), input)),
  );

  router.post(
    ["/sms/learned-response.php", "/sms/learned-response"],
    requireUser,
    handle(smsLearnedResponseRequestSchema, "body", (input, req) => learnedResponse(assertOwnUserId(req, input.userId), input)),
  );

  return router;
}
