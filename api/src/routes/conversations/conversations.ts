import { Router } from "express";
import {
  conversationDeleteRequestSchema,
  conversationListQuerySchema,
  conversationLoadQuerySchema,
  conversationSaveRequestSchema,
} from "@storefront/shared";
import type { AppContext } from "../../context";
import { assertOwnUserId, requireUser } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { deleteConversation, listConversations, loadConversation, saveConversation } from "../../services/conversations";

/** conversations/list.php, load.php, save.php, delete.php (SPEC §7); clean aliases share the handlers. */
export function conversationRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get(
    ["/conversations/list.php", "/conversations"],
    requireUser,
    handle(conversationListQuerySchema, "query", async (input, req) => ({
      success: true,
      conversations: await listConversations(assertOwnUserId(req, input.userId), input.kind),
    })),
  );

  router.get(
    ["/conversations/load.php"],
    requireUser,
    handle(conversationLoadQuerySchema, "query", (input, req) =>
      loadConversation(assertOwnUserId(req, input.userId), input.conversationId),
    ),
  );

  router.post(
    ["/conversations/save.php", "/conversations/save"],
    requireUser,
    handle(conversationSaveRequestSchema, "body", (input, req) => saveConversation(assertOwnUserId(req, input.userId), input)),
  );

  router.post(
    ["/conversations/delete.php", "/conversations/delete"],
    requireUser,
    handle(conversationDeleteRequestSchema, "body", (input, req) =>
      deleteConversation(assertOwnUserId(req, input.userId), input.conversationId),
    ),
  );

  return router;
}
