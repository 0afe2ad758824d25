import { Router } from "express";
import { adminUsersQuerySchema, toggleUserRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { listUsers, setUserActive } from "../../services/admin-users";

export function adminUsersRoutes(ctx: AppContext): Router {
  const router = Router();
  const paths = ["/admin/users.php", "/admin/users"];
  router.get(paths, requireAdmin("users:view"), handle(adminUsersQuerySchema, "query", listUsers));
  router.put(
    paths,
    requireAdmin("users:toggle"),
    handle(toggleUserRequestSchema, "body", (input, req) => setUserActive(ctx.pusher, req.admin!, input.userId, input.isActive)),
  );
  return router;
}
