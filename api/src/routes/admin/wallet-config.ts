import { walletConfigRequestSchema, walletConfigResponseSchema, walletConfigSaveResponseSchema } from "@storefront/shared";
import { readWalletConfig, saveWalletConfig } from "../../services/admin-wallet-config";
import { defineRoute, TAGS } from "../define";

const paths = ["/admin/wallet-config.php", "/admin/wallet-config"] as const;

export const adminWalletConfigRoutes = [
  defineRoute({
    method: "get",
    paths,
    tag: TAGS.admin,
    summary: "Feature pricing and tiers",
    auth: "admin",
    permission: "wallet_config:view",
    response: walletConfigResponseSchema,
    errors: [401, 403],
    handler: async () => ({ success: true as const, ...(await readWalletConfig()) }),
  }),

  defineRoute({
    method: "put",
    paths,
    tag: TAGS.admin,
    summary: "Replace feature pricing and tiers",
    auth: "admin",
    permission: "wallet_config:edit",
    grants: "pricing",
    body: walletConfigRequestSchema,
    response: walletConfigSaveResponseSchema,
    errors: [400, 401, 403],
    handler: async ({ body, req }) => ({
      success: true as const,
      ...(await saveWalletConfig(req.admin!, body)),
      message: "Wallet configuration updated successfully",
    }),
  }),
];
