import { Router } from "express";
import { createPackageRequestSchema, idQuerySchema, updatePackageRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { createPackage, deletePackage, listPackages, updatePackage } from "../../services/packages";

export function adminPackagesRoutes(_ctx: AppContext): Router {
  const router = Router();
  const paths = ["/admin/wallet-packages-simple.php", "/admin/packages"];
  router.get(paths, requireAdmin("packages:view"), async (_req, res) => {
    res.json({ success: true, packages: await listPackages() });
  });
  router.post(
    paths,
    requireAdmin("packages:manage"),
    handle(createPackageRequestSchema, "body", async ({ id: _ignored, ...fields }, req, res) => {
      const pkg = await createPackage(req.admin!, fields);
      res.status(201);
      return { success: true, package: pkg, message: "Package created successfully" };
    }),
  );
  router.put(
    paths,
    requireAdmin("packages:manage"),
    handle(updatePackageRequestSchema, "body", async (input, req) => ({
      success: true,
      package: await updatePackage(req.admin!, input),
      message: "Package updated successfully",
    })),
  );
  router.delete(
    paths,
    requireAdmin("packages:manage"),
    handle(idQuerySchema, "query", async ({ id }, req) => {
      await deletePackage(req.admin!, id);
      return { success: true, message: "Package deleted successfully" };
    }),
  );
  return router;
}
