/** My usage: the session user's ledger (wallet/history.php), as JSON pages or one CSV file. */
import { walletHistoryQuerySchema, walletHistoryResponseSchema } from "@storefront/shared";
import { walletHistory, walletHistoryCsv } from "../../services/history";
import { defineRoute, TAGS } from "../define";

export const walletHistoryRoutes = [
  defineRoute({
    method: "get",
    paths: ["/wallet/history.php", "/wallet/history"],
    tag: TAGS.wallet,
    summary:
      "The session user's coin movements, newest first (filters: feature, from, to; pages of at most 100). format=csv answers text/csv with every matching row (at most 10,000) instead",
    auth: "user",
    query: walletHistoryQuerySchema,
    response: walletHistoryResponseSchema,
    errors: [400, 401],
    handler: async ({ query, req, res }) => {
      if (query.format !== "csv") return walletHistory(req.user!.id, query);
      const csv = await walletHistoryCsv(req.user!.id, query);
      res.setHeader("Content-Type", "text/csv; charset=utf-8");
      res.setHeader("Content-Disposition", 'attachment; filename="coin-history.csv"');
      res.setHeader("Cache-Control", "no-store");
      res.send(`\uFEFF${csv}`);
      return undefined;
    },
  }),
];
