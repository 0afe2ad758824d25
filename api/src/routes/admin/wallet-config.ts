import { Router } from "express";
import { walletConfigRequestSchema } from "@storefront/shared";
import type { AppContext } from "../../context";
import { requireAdmin } from "../../middleware/auth";
import { handle } from "../../middleware/validate";
import { readWalletConfig, saveWalletConfig } from "../../services/admin-wallet-config";

export function adminWalletConfigRoutes(_ctx: AppContext): Router {
  const router = Router();
  const paths = ["/admin/wallet-config.php", "/admin/wallet-config"];
  router.get(paths, requireAdmin("wallet_config:view"), async (_req, res) => {
    res.json({ success: true, ...(await readWalletConfig()) });
  });
  router.put(
    paths,
    requireAdmin("wallet_config:edit"),
    handle(walletConfigRequestSchema, "body", async (input, req) => ({
      success: true,
      ...(await saveWalletConfig(req.admin!, input)),
      message: "Wallet configuration updated successfully",
    })),
  );
  return router;
}
