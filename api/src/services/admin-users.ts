/** Customer Support: the user list with usage, and the active toggle (SPEC §2, §4). */
import { Types } from "mongoose";
import { shownTier, type AdminUserRow, type AdminUsersQuery, type AdminUsersResponse } from "@storefront/shared";
import { LedgerEntry, loadWalletTables, publishCacheChange, User, type Pusher } from "@storefront/shared/server";
import { notFound } from "../errors";
import type { AuthedAdmin } from "../middleware/auth";
import { usageByUserPipeline } from "./admin-usage";
import { recordAudit } from "./audit";

interface UserRowDoc {
  _id: Types.ObjectId;
  phone?: string;
  releasedPhone?: string;
  coins: number;
  tier: number;
  isActive: boolean;
  createdAt: Date;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

/**
 * A search holding digits matches them inside the stored E.164 phone, whatever the admin typed
 * around them ("+1 (460) 005-9478", "0501234567": a national trunk 0 is not stored).
 */
function phoneFilter(search: string | undefined): Record<string, unknown> {
  if (!search) return {};
  const digits = search.replace(/\D/gu, "").replace(/^0+/u, "");
  return { phone: { $regex: escapeRegex(digits || search) } };
}

export async function listUsers(query: AdminUsersQuery): Promise<AdminUsersResponse> {
  const filter = phoneFilter(query.search);
  const [users, total, tables] = await Promise.all([
    User.find(filter, { phone: 1, releasedPhone: 1, coins: 1, tier: 1, isActive: 1, createdAt: 1 })
      .sort({ createdAt: -1, _id: -1 })
      .skip((query.page - 1) * query.limit)
      .limit(query.limit)
      .lean<UserRowDoc[]>(),
    User.countDocuments(filter),
    loadWalletTables(),
  ]);
  const usage = users.length
    ? await LedgerEntry.aggregate<{ _id: { userId: Types.ObjectId; feature: string }; total: number }>(
        usageByUserPipeline(users.map((u) => u._id)),
      )
    : [];
  const byUser = new Map<string, AdminUserRow["usage_stats"]>();
  for (const row of usage) {
    const key = String(row._id.userId);
    const list = byUser.get(key) ?? [];
    list.push({ feature_type: row._id.feature, total_tokens: row.total });
    byUser.set(key, list);
  }
  return {
    success: true,
    users: users.map((u) => ({
      id: String(u._id),
      // A number taken back by its proven owner: the one the account still signs in with.
      phone: u.phone ?? u.releasedPhone ?? "",
      coins: u.coins,
      tier: shownTier(u.coins, u.tier ?? 1, tables.tiers),
      tier_floor: u.tier ?? 1,
      is_active: u.isActive !== false,
      created_at: u.createdAt.toISOString(),
      usage_stats: (byUser.get(String(u._id)) ?? []).sort((a, b) => a.feature_type.localeCompare(b.feature_type)),
    })),
    total,
    page: query.page,
    total_pages: Math.max(1, Math.ceil(total / query.limit)),
  };
}

/**
 * Turns a user on or off. requireUser's cache of the flag is emptied on every process before this
 * answers, so an inactive user's live sessions stop working at their next request and login
 * answers 403; turning off also closes the user's open sockets.
 */
export async function setUserActive(pusher: Pusher, admin: AuthedAdmin, userId: string, isActive: boolean) {
  const before = await User.findOneAndUpdate(
    { _id: userId },
    { isActive },
    { returnDocument: "before", projection: { isActive: 1, phone: 1 } },
  ).lean<{ isActive: boolean; phone: string }>();
  if (!before) throw notFound("User not found");
  await publishCacheChange("user", userId);
  if (!isActive) pusher.disconnectUser(userId);
  await recordAudit(admin, {
    action: "user.toggle",
    targetType: "user",
    targetId: userId,
    before: { is_active: before.isActive, phone: before.phone },
    after: { is_active: isActive, phone: before.phone },
  });
  return { success: true as const, userId, isActive };
}
