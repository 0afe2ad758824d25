import { Router } from "express";
import { chatRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { assertOwnUserId, requireUser } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { chat } from "../../services/chat";

/** POST textai/chat.php (SPEC §7): the text personas and, with avatarType "doctor", the Doctor. */
export function chatRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post(
    ["/textai/chat.php", "/chat"],
    requireUser,
    handle(chatRequestSchema, "body", (input, req) =>
      chat(ctx, input, {
        userId: assertOwnUserId(req, input.userId),
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
      }),
    ),
  );
  return router;
}
