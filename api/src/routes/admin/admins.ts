import { Router } from "express";
import { createAdminRequestSchema, updateAdminRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { createAdmin, listAdmins, updateAdmin } from "../../services/admins";

export function adminAdminsRoutes(_ctx: AppContext): Router {
  const router = Router();
  const paths = ["/admin/admins.php", "/admin/admins"];
  router.get(paths, requireAdmin("admins:manage"), async (_req, res) => {
    res.json(await listAdmins());
  });
  router.post(
    paths,
    requireAdmin("admins:manage"),
    handle(createAdminRequestSchema, "body", async (input, req, res) => {
      const admin = await createAdmin(req.admin!, input);
      res.status(201);
      return { success: true, admin };
    }),
  );
  router.put(
    paths,
    requireAdmin("admins:manage"),
    handle(updateAdminRequestSchema, "body", async (input, req) => {
      const { account, sessionVersion } = await updateAdmin(req.admin!, input);
      // Resetting one's own password ends one's other sessions, not this one.
      if (account.id === req.admin!.id) req.session.adminSessionVersion = sessionVersion;
      return { success: true, admin: account };
    }),
  );
  return router;
}
