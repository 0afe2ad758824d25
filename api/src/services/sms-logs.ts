/** SMS integration logs, messages and statistics for the admin Logs & Statistics tab (SPEC §3, §7). */
import { Types } from "mongoose";
import type { SmsLogsQuery } from "@storefront/shared";
import { SmsLog, SmsMessage, type SmsLogDoc, type SmsMessageDoc } from "@storefront/shared/server";

type Filters = Omit<SmsLogsQuery, "view" | "page" | "limit">;

function dateRange(filters: Filters): Record<string, Date> | undefined {
  const range: Record<string, Date> = {};
  if (filters.dateFrom) range.$gte = filters.dateFrom;
  if (filters.dateTo) range.$lte = filters.dateTo;
  return Object.keys(range).length ? range : undefined;
}

function common(filters: Filters): Record<string, unknown> {
  const match: Record<string, unknown> = {};
  const created = dateRange(filters);
  if (created) match.created_at = created;
  if (filters.userId) match.user_id = new Types.ObjectId(filters.userId);
  if (filters.phone) match.phone = filters.phone;
  return match;
}

function page<T>(items: T[], total: number, query: SmsLogsQuery) {
  return { total, page: query.page, limit: query.limit, total_pages: Math.max(1, Math.ceil(total / query.limit)), items };
}

export async function smsLogs(query: SmsLogsQuery) {
  const match = common(query);
  if (query.logAction) match.action = query.logAction;
  const [rows, total] = await Promise.all([
    SmsLog.find(match)
      .sort({ created_at: -1, _id: -1 })
      .skip((query.page - 1) * query.limit)
      .limit(query.limit)
      .lean<SmsLogDoc[]>(),
    SmsLog.countDocuments(match),
  ]);
  const logs = rows.map((r) => ({
    id: String(r._id),
    action: r.action,
    user_id: r.user_id ? String(r.user_id) : null,
    user_name: r.user_name,
    phone: r.phone,
    details: r.details,
    message_id: r.message_id,
    created_at: r.created_at.toISOString(),
  }));
  const { items, ...rest } = page(logs, total, query);
  return { logs: items, ...rest };
}

export async function smsMessages(query: SmsLogsQuery) {
  const match = common(query);
  if (query.direction) match.direction = query.direction;
  const [rows, total] = await Promise.all([
    SmsMessage.find(match)
      .sort({ created_at: -1, _id: -1 })
      .skip((query.page - 1) * query.limit)
      .limit(query.limit)
      .lean<SmsMessageDoc[]>(),
    SmsMessage.countDocuments(match),
  ]);
  const messages = rows.map((r) => ({
    id: String(r._id),
    direction: r.direction,
    user_id: r.user_id ? String(r.user_id) : null,
    user_name: r.user_name,
    phone: r.phone,
    message: r.message,
    gateway_response: r.gateway_response,
    kind: r.kind,
    state: r.state,
    channel: r.channel,
    coins: r.coins,
    segments: r.segments,
    delivery_status: r.delivery_status,
    created_at: r.created_at.toISOString(),
  }));
  const { items, ...rest } = page(messages, total, query);
  return { messages: items, ...rest };
}

const TOP_USERS = 10;

/** basic_stats and top_users of SPEC §3, computed by aggregation over the logs and messages. */
export async function smsStats(query: SmsLogsQuery) {
  const match = common(query);
  const [actions, users, unknown, top] = await Promise.all([
    SmsLog.aggregate<{ _id: string; count: number }>([{ $match: match }, { $group: { _id: "$action", count: { $sum: 1 } } }]),
    SmsMessage.aggregate<{ _id: null; count: number }>([
      { $match: { user_id: { $ne: null }, ...match, direction: "inbound" } },
      { $group: { _id: "$user_id" } },
      { $group: { _id: null, count: { $sum: 1 } } },
    ]),
    SmsLog.aggregate<{ _id: null; count: number }>([
      { $match: { ...match, action: "unknown_user_sms" } },
      { $group: { _id: "$phone" } },
      { $group: { _id: null, count: { $sum: 1 } } },
    ]),
    SmsMessage.aggregate<{ _id: string; name: string; total_sms: number; replies_received: number }>([
      { $match: { user_id: { $ne: null }, ...match } },
      {
        $group: {
          _id: "$phone",
          name: { $last: "$user_name" },
          total_sms: { $sum: { $cond: [{ $eq: ["$direction", "inbound"] }, 1, 0] } },
          replies_received: {
            $sum: { $cond: [{ $and: [{ $eq: ["$direction", "outbound"] }, { $eq: ["$state", "sent"] }] }, 1, 0] },
          },
        },
      },
      { $sort: { total_sms: -1, replies_received: -1, _id: 1 } },
      { $limit: TOP_USERS },
    ]),
  ]);
  const byAction = new Map(actions.map((a) => [a._id, a.count]));
  return {
    basic_stats: {
      total_logs: actions.reduce((sum, a) => sum + a.count, 0),
      replies_sent: byAction.get("sms_reply_sent") ?? 0,
      unique_users: users[0]?.count ?? 0,
      unknown_users: unknown[0]?.count ?? 0,
    },
    top_users: top.map((t) => ({ name: t.name, phone: t._id, total_sms: t.total_sms, replies_received: t.replies_received })),
  };
}
