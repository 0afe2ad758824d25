/**
 * Analytics for administrators (admin/analytics.php): per UTC day of a range, coins spent per
 * feature, active users, signups, packages sold and their revenue, redemptions, and charged jobs
 * per queue that completed (hold settled) or failed (hold refunded). Every figure is one grouped
 * aggregation over an indexed range; nothing is loaded row by row.
 */
import type { AnalyticsDay, AnalyticsQuery, AnalyticsResponse } from "@storefront/shared";
import { LedgerEntry, PackageAssignmentModel, RedemptionUse, User } from "@storefront/shared/server";
import { csvCell } from "./history";
import { SPENT_MATCH } from "./admin-usage";

const DAY_MS = 86_400_000;
const day = { $dateToString: { format: "%Y-%m-%d", date: "$createdAt" } };

export async function analytics(query: AnalyticsQuery): Promise<AnalyticsResponse> {
  const start = new Date(`${query.from}T00:00:00Z`);
  const end = new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS);
  const created = { createdAt: { $gte: start, $lt: end } };
  const spent = { $multiply: ["$amount", -1] };

  const [spending, active, signups, sales, redeemed, jobs] = await Promise.all([
    LedgerEntry.aggregate<{ _id: { day: string; feature: string | null }; coins: number }>([
      { $match: { ...SPENT_MATCH, ...created } },
      { $group: { _id: { day, feature: "$feature" }, coins: { $sum: spent } } },
    ]),
    LedgerEntry.aggregate<{ _id: string; users: number }>([
      { $match: { ...SPENT_MATCH, ...created } },
      { $group: { _id: { day, user: "$userId" } } },
      { $group: { _id: "$_id.day", users: { $sum: 1 } } },
    ]),
    User.aggregate<{ _id: string; count: number }>([{ $match: created }, { $group: { _id: day, count: { $sum: 1 } } }]),
    PackageAssignmentModel.aggregate<{ _id: string; count: number; revenue: number }>([
      { $match: { payment: "paid", ...created } },
      { $group: { _id: day, count: { $sum: 1 }, revenue: { $sum: "$price" } } },
    ]),
    RedemptionUse.aggregate<{ _id: string; count: number; coins: number }>([
      { $match: { credited: true, ...created } },
      { $group: { _id: day, count: { $sum: 1 }, coins: { $sum: "$coins" } } },
    ]),
    // A job ends when its hold does: settled (completed) or released (failed, refunded).
    LedgerEntry.aggregate<{ _id: { day: string; queue: string | null; state: string }; count: number }>([
      { $match: { kind: "hold", holdState: { $in: ["settled", "released"] }, updatedAt: { $gte: start, $lt: end } } },
      {
        $group: {
          _id: { day: { $dateToString: { format: "%Y-%m-%d", date: "$updatedAt" } }, queue: "$queue", state: "$holdState" },
          count: { $sum: 1 },
        },
      },
    ]),
  ]);

  const days = new Map<string, AnalyticsDay>();
  for (let t = start.getTime(); t < end.getTime(); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.set(date, {
      date,
      coins_spent: {},
      active_users: 0,
      new_signups: 0,
      packages_sold: 0,
      package_revenue: 0,
      redemptions: 0,
      coins_redeemed: 0,
      jobs: {},
    });
  }
  for (const row of spending) {
    const d = days.get(row._id.day);
    if (d) d.coins_spent[row._id.feature ?? "other"] = (d.coins_spent[row._id.feature ?? "other"] ?? 0) + row.coins;
  }
  for (const row of active) {
    const d = days.get(row._id);
    if (d) d.active_users = row.users;
  }
  for (const row of signups) {
    const d = days.get(row._id);
    if (d) d.new_signups = row.count;
  }
  for (const row of sales) {
    const d = days.get(row._id);
    if (d) Object.assign(d, { packages_sold: row.count, package_revenue: Math.round(row.revenue * 100) / 100 });
  }
  for (const row of redeemed) {
    const d = days.get(row._id);
    if (d) Object.assign(d, { redemptions: row.count, coins_redeemed: row.coins });
  }
  for (const row of jobs) {
    const d = days.get(row._id.day);
    if (!d) continue;
    const queue = row._id.queue ?? "other";
    d.jobs[queue] ??= { completed: 0, failed: 0 };
    d.jobs[queue][row._id.state === "settled" ? "completed" : "failed"] += row.count;
  }
  return { success: true, from: query.from, to: query.to, days: [...days.values()] };
}

const FEATURE_COLUMNS = ["text", "doctor", "image", "video", "sms", "audio"] as const;
const QUEUE_COLUMNS = ["chat", "image", "video", "sms-reply"] as const;

/** One row per day, every figure its own column. */
export function analyticsCsv(result: AnalyticsResponse): string {
  const header = [
    "date",
    ...FEATURE_COLUMNS.map((f) => `coins_${f}`),
    "active_users",
    "new_signups",
    "packages_sold",
    "package_revenue",
    "redemptions",
    "coins_redeemed",
    ...QUEUE_COLUMNS.flatMap((q) => [`${q}_completed`, `${q}_failed`]),
  ];
  const rows = result.days.map((d) =>
    [
      d.date,
      ...FEATURE_COLUMNS.map((f) => d.coins_spent[f] ?? 0),
      d.active_users,
      d.new_signups,
      d.packages_sold,
      d.package_revenue,
      d.redemptions,
      d.coins_redeemed,
      ...QUEUE_COLUMNS.flatMap((q) => [d.jobs[q]?.completed ?? 0, d.jobs[q]?.failed ?? 0]),
    ]
      .map(csvCell)
      .join(","),
  );
  return `${header.join(",")}\r\n${rows.join("\r\n")}\r\n`;
}
