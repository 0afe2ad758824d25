import { Router } from "express";
import { adminLoginRequestSchema } from "@storefront/shared";
import { z } from "zod";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { adminLogin, limitLoginAttempts } from "../../services/auth";

export function adminAuthRoutes(ctx: AppContext): Router {
  const router = Router();

  router.post(
    ["/admin/login.php", "/admin/login"],
    handle(adminLoginRequestSchema, "body", async (input, req) => {
      await limitLoginAttempts(ctx.redis, ctx.config, `admin:${input.username}`, req.ip ?? "unknown");
      const admin = await adminLogin(req, input.username, input.password);
      return { success: true, admin, message: "Login successful! Welcome to Admin Dashboard" };
    }),
  );

  router.post(
    ["/admin/logout.php", "/admin/logout"],
    handle(z.object({}).passthrough(), "body", (_input, req) => {
      delete req.session.adminId;
      delete req.session.adminRole;
      ctx.pusher.leaveAdmins(req.sessionID);
      return { success: true };
    }),
  );

  router.get(["/admin/session.php", "/admin/session"], requireAdmin(), (req, res) => {
    res.json({ success: true, admin: req.admin });
  });

  return router;
}
