/** My usage (wallet/history.php): the session user's coin movements. */
import { walletHistoryResponseSchema, type Feature, type WalletHistoryResponse } from "@storefront/shared";
import { apiUrl, get, type Query } from "./client";

export interface HistoryFilters {
  feature: Feature | "";
  from: string;
  to: string;
}

function queryOf(filters: HistoryFilters): Query {
  return { feature: filters.feature || undefined, from: filters.from || undefined, to: filters.to || undefined };
}

export async function walletHistory(filters: HistoryFilters, page: number, limit = 20): Promise<WalletHistoryResponse> {
  return walletHistoryResponseSchema.parse(await get<unknown>("wallet/history.php", { ...queryOf(filters), page, limit }));
}

/** The CSV of every movement the filters match (the browser downloads it with the session cookie). */
export function walletHistoryCsvUrl(filters: HistoryFilters): string {
  return apiUrl("wallet/history.php", { ...queryOf(filters), format: "csv" });
}
