/** The public price list: what tools, packages and a new account cost, before anyone signs up. */
import { MESSAGES, storefrontResponseSchema } from "@storefront/shared";
import { clientKey, hit } from "../../middleware/rate-limit";
import { storefrontInfo } from "../../services/storefront";
import { defineRoute, TAGS } from "../define";

export const storefrontRoutes = [
  defineRoute({
    method: "get",
    paths: ["/storefront.php", "/storefront"],
    tag: TAGS.wallet,
    summary:
      "Public and read-only: each tool's price in coins from the live pricing table, the packages on offer, the coins a new account starts with, the currency and the default phone country (cached per process; limited per address)",
    auth: "none",
    response: storefrontResponseSchema,
    errors: [429],
    handler: async ({ req, ctx }) => {
      await hit(
        ctx.redis,
        `storefront:ip:${clientKey(req.ip)}`,
        ctx.config.STOREFRONT_RATE_LIMIT_PER_IP_PER_MINUTE,
        60,
        MESSAGES.tooManyRequests,
      );
      return storefrontInfo(ctx.config);
    },
  }),
];
