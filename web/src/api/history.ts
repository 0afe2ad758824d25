/** My usage (wallet/history.php, wallet/settings.php): the session user's coin movements and spending limits. */
import {
  walletHistoryResponseSchema,
  walletSettingsResponseSchema,
  type Feature,
  type WalletHistoryResponse,
  type WalletSettingsRequest,
  type WalletSettingsResponse,
} from "@storefront/shared";
import { apiUrl, get, request, type Query } from "./client";

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

/** The daily spending cap and low-balance threshold (wallet/settings.php), as set and as they apply. */
export async function walletSettings(): Promise<WalletSettingsResponse> {
  return walletSettingsResponseSchema.parse(await get<unknown>("wallet/settings.php"));
}

/** null puts a setting back to its default. */
export async function saveWalletSettings(body: WalletSettingsRequest): Promise<WalletSettingsResponse> {
  return walletSettingsResponseSchema.parse(await request<unknown>("wallet/settings.php", { method: "PUT", body }));
}
