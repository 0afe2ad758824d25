/** The pricing and tier tables (SPEC §2 Wallet Config, §5). Charges read them from each process's cache, which a save empties on every process. */
import type { WalletConfigRequest } from "@storefront/shared";
import { loadWalletTables, saveWalletTables, type WalletTables } from "@storefront/shared/server";
import type { AuthedAdmin } from "../middleware/auth";
import { recordAudit } from "./audit";

export function readWalletConfig(): Promise<WalletTables> {
  return loadWalletTables();
}

export async function saveWalletConfig(admin: AuthedAdmin, input: WalletConfigRequest): Promise<WalletTables> {
  const before = await loadWalletTables();
  const tiers = [...input.tiers].sort((a, b) => a.tier_number - b.tier_number);
  const after = { pricing: input.pricing, tiers };
  await saveWalletTables(after);
  await recordAudit(admin, { action: "wallet_config.update", targetType: "wallet_config", targetId: "wallet", before, after });
  return after;
}
