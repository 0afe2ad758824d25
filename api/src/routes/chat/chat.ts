import { chatRequestSchema, chatResponseSchema } from "@storefront/shared";
import { assertOwnUserId } from "../../middleware/auth";
import { chat } from "../../services/chat";
import { defineRoute, TAGS } from "../define";

/** POST textai/chat.php (SPEC §7): the text personas and, with avatarType "doctor", the Doctor. */
export const chatRoutes = [
  defineRoute({
    method: "post",
    paths: ["/textai/chat.php", "/chat"],
    tag: TAGS.chat,
    summary: 'Text chat with a persona, or Doctor (avatarType "doctor"): charged, queued, answered when the job completes',
    auth: "user",
    body: chatRequestSchema,
    response: chatResponseSchema,
    errors: [400, 401, 402, 403, 429, 504],
    handler: ({ body, req, ctx }) =>
      chat(ctx, body, {
        userId: assertOwnUserId(req, body.userId),
        idempotencyKey: req.get("Idempotency-Key"),
        requestId: String(req.id),
        ...(req.arrivedAt ? { arrivedAt: req.arrivedAt } : {}),
      }),
  }),
];
