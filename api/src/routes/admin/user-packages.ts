import { Router } from "express";
import { MESSAGES, assignPackageRequestSchema, idQuerySchema, userPackagesQuerySchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { assignPackage, listAssignments, removeAssignment } from "../../services/packages";

export function adminUserPackagesRoutes(ctx: AppContext): Router {
  const router = Router();
  const paths = ["/admin/user-packages.php", "/admin/user-packages"];

  /** With ?userId= the user's packages (SPEC: packages), otherwise every assignment (assignments). */
  router.get(
    paths,
    requireAdmin("packages:view"),
    handle(userPackagesQuerySchema, "query", async (query) => {
      const { items, total, total_pages } = await listAssignments(query);
      const list = query.userId ? { packages: items } : { assignments: items };
      return { success: true, ...list, total, page: query.page, total_pages };
    }),
  );

  // Assigning credits the package's coins (and sets up their renewals): a coin grant.
  router.post(
    paths,
    requireAdmin("packages:assign", "coins:grant"),
    (req, _res, next) => {
      // SPEC §5 names this text for a missing package, before any other field is looked at.
      const packageId = (req.body as { packageId?: unknown } | undefined)?.packageId;
      if (packageId === undefined || packageId === null || String(packageId).trim() === "") {
        throw badRequest(MESSAGES.packageRequired, "packageId");
      }
      next();
    },
    handle(assignPackageRequestSchema, "body", async (input, req) => {
      const { assignment, coinsAdded } = await assignPackage(req.admin!, input, ctx.pusher);
      return { success: true, coinsAdded, assignment };
    }),
  );

  router.delete(
    paths,
    requireAdmin("packages:assign"),
    handle(idQuerySchema, "query", async ({ id }, req) => {
      await removeAssignment(req.admin!, id);
      return { success: true };
    }),
  );
  return router;
}
