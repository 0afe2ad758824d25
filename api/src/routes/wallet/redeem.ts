/** Redemption codes: a subscriber redeems one; administrators with coins:grant make and manage batches. */
import {
  createRedemptionBatchRequestSchema,
  createRedemptionBatchResponseSchema,
  redeemRequestSchema,
  redeemResponseSchema,
  redemptionBatchesQuerySchema,
  redemptionBatchesResponseSchema,
  updateRedemptionBatchRequestSchema,
  updateRedemptionBatchResponseSchema,
} from "@storefront/shared";
import { createBatch, listBatches, redeemCode, setBatchEnabled } from "../../services/redemptions";
import { defineRoute, TAGS } from "../define";

const adminPaths = ["/admin/redemption-codes.php", "/admin/redemption-codes"] as const;

export const redemptionRoutes = [
  defineRoute({
    method: "post",
    paths: ["/wallet/redeem.php", "/wallet/redeem"],
    tag: TAGS.wallet,
    summary:
      "Redeem a code for coins (once per user and code; attempts limited per user and per address: 429). 400 code_invalid / code_expired / code_used_up, 409 code_already_redeemed",
    auth: "user",
    body: redeemRequestSchema,
    response: redeemResponseSchema,
    errors: [400, 401, 409, 429],
    handler: ({ body, req, ctx }) => redeemCode(ctx, req.user!.id, req.ip ?? "unknown", body.code),
  }),

  defineRoute({
    method: "get",
    paths: adminPaths,
    tag: TAGS.admin,
    summary: "Redemption batches with their redeemed and remaining uses; with batchId, who redeemed that batch's codes",
    auth: "admin",
    permission: "coins:grant",
    grants: "redemption_codes",
    query: redemptionBatchesQuerySchema,
    response: redemptionBatchesResponseSchema,
    errors: [400],
    handler: ({ query }) => listBatches(query.batchId),
  }),

  defineRoute({
    method: "post",
    paths: adminPaths,
    tag: TAGS.admin,
    summary: "Make a batch of codes; the answer is the only time the codes are shown (only their hashes are stored)",
    auth: "admin",
    permission: "coins:grant",
    grants: "redemption_codes",
    status: 201,
    body: createRedemptionBatchRequestSchema,
    response: createRedemptionBatchResponseSchema,
    errors: [400],
    handler: ({ body, req, res }) => {
      res.setHeader("Cache-Control", "no-store");
      return createBatch(req.admin!, body);
    },
  }),

  defineRoute({
    method: "put",
    paths: adminPaths,
    tag: TAGS.admin,
    summary: "Enable or disable a batch (a disabled batch's codes answer code_invalid)",
    auth: "admin",
    permission: "coins:grant",
    grants: "redemption_codes",
    body: updateRedemptionBatchRequestSchema,
    response: updateRedemptionBatchResponseSchema,
    errors: [400, 404],
    handler: async ({ body, req }) => ({
      success: true as const,
      batch: await setBatchEnabled(req.admin!, body.id, body.enabled),
    }),
  }),
];
