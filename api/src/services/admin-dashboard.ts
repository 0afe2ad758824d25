/** The dashboard numbers (SPEC §2, §3), every one an aggregation or a count: nothing is loaded into memory. */
import mongoose from "mongoose";
import { shownTier, type DashboardStats } from "@storefront/shared";
import { LedgerEntry, loadWalletTables, User } from "@storefront/shared/server";
import { SPENT_MATCH } from "./admin-usage";

const DAY_MS = 24 * 3600_000;
const USAGE_WINDOW_DAYS = 30;
const TOP_USERS = 10;

/**
 * Collections owned by other areas (conversations, images, SMS messages). They may not exist
 * yet on a fresh database: a missing collection counts 0.
 */
async function countCollection(name: string, filter: Record<string, unknown> = {}): Promise<number> {
  const db = mongoose.connection.db;
  if (!db) return 0;
  const exists = await db.listCollections({ name }, { nameOnly: true }).hasNext();
  return exists ? db.collection(name).countDocuments(filter) : 0;
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export async function dashboardStats(now = new Date()): Promise<DashboardStats> {
  const since = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (USAGE_WINDOW_DAYS - 1) * DAY_MS);
  const spent = { $multiply: ["$amount", -1] };

  const [totalUsers, activeUsers, totals, byFeature, top, daily, sms, images, conversations] = await Promise.all([
    User.countDocuments({}),
    User.countDocuments({ isActive: true }),
    LedgerEntry.aggregate<{ total: number }>([{ $match: SPENT_MATCH }, { $group: { _id: null, total: { $sum: spent } } }]),
    LedgerEntry.aggregate<{ _id: string | null; count: number; total: number }>([
      { $match: { ...SPENT_MATCH, createdAt: { $gte: since } } },
      { $group: { _id: "$feature", count: { $sum: 1 }, total: { $sum: spent } } },
      { $sort: { total: -1 } },
    ]),
    LedgerEntry.aggregate<{
      _id: mongoose.Types.ObjectId;
      total: number;
      user: { phone: string; coins: number; tier: number }[];
    }>([
      { $match: SPENT_MATCH },
      { $group: { _id: "$userId", total: { $sum: spent } } },
      { $sort: { total: -1 } },
      { $limit: TOP_USERS },
      { $lookup: { from: User.collection.name, localField: "_id", foreignField: "_id", as: "user" } },
    ]),
    LedgerEntry.aggregate<{ _id: string; count: number; total: number }>([
      { $match: { ...SPENT_MATCH, createdAt: { $gte: since } } },
      {
        $group: {
          _id: { $dateToString: { format: "%Y-%m-%d", date: "$createdAt" } },
          count: { $sum: 1 },
          total: { $sum: spent },
        },
      },
    ]),
    countCollection("smsmessages", { direction: { $ne: "inbound" } }),
    countCollection("images"),
    countCollection("conversations"),
  ]);
  const { tiers } = await loadWalletTables();

  const byDay = new Map(daily.map((d) => [d._id, d]));
  const days = Array.from({ length: USAGE_WINDOW_DAYS }, (_, i) => utcDay(new Date(since.getTime() + i * DAY_MS)));

  return {
    total_users: totalUsers,
    active_users: activeUsers,
    total_tokens_spent: totals[0]?.total ?? 0,
    total_sms: sms,
    total_images: images,
    total_conversations: conversations,
    usage_by_feature: byFeature.map((f) => ({ feature_type: f._id ?? "other", count: f.count, total_tokens: f.total })),
    top_users: top.map((t) => ({
      id: String(t._id),
      phone: t.user[0]?.phone ?? "",
      coins: t.user[0]?.coins ?? 0,
      total_spent: t.total,
      tier: shownTier(t.user[0]?.coins ?? 0, t.user[0]?.tier ?? 1, tiers),
    })),
    daily: days.map((date) => ({ date, coins_spent: byDay.get(date)?.total ?? 0, count: byDay.get(date)?.count ?? 0 })),
  };
}
