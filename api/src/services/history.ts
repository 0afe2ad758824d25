/**
 * My usage (wallet/history.php): the session user's ledger entries, newest first, with
 * the feature, the signed amount, the balance after and the job each paid for; as JSON pages or
 * as one CSV file. Read through the ledger's {userId, createdAt} index.
 */
import { Types } from "mongoose";
import type { WalletHistoryEntry, WalletHistoryQuery, WalletHistoryResponse } from "@storefront/shared";
import { LedgerEntry } from "@storefront/shared/server";

interface EntryDoc {
  _id: Types.ObjectId;
  kind: string;
  reason?: string;
  feature: string | null;
  amount: number;
  balanceAfter: number | null;
  queue: string | null;
  jobId: string | null;
  createdAt: Date;
}

/** The most rows one CSV export holds (the filters narrow it further). */
const HISTORY_CSV_MAX_ROWS = 10_000;

function kindOf(doc: EntryDoc): WalletHistoryEntry["kind"] {
  if (doc.kind === "hold" || doc.kind === "debit") return "charge";
  if (doc.kind === "release" || doc.kind === "refund") return "refund";
  if (doc.kind === "renewal") return "renewal";
  if (doc.kind === "credit") return (doc.reason ?? "").startsWith("purchase:") ? "purchase" : "credit";
  return "adjustment";
}

function filterOf(userId: string, query: WalletHistoryQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = { userId: new Types.ObjectId(userId) };
  if (query.feature) filter.feature = query.feature;
  const createdAt: Record<string, Date> = {};
  if (query.from) createdAt.$gte = new Date(query.from);
  if (query.to) {
    const end = new Date(query.to);
    // A day means the whole day (UTC).
    if (/^\d{4}-\d{2}-\d{2}$/u.test(query.to)) end.setUTCDate(end.getUTCDate() + 1);
    createdAt.$lt = end;
  }
  if (Object.keys(createdAt).length) filter.createdAt = createdAt;
  return filter;
}

function toEntry(doc: EntryDoc): WalletHistoryEntry {
  return {
    id: String(doc._id),
    kind: kindOf(doc),
    feature: doc.feature ?? null,
    amount: doc.amount,
    balance_after: doc.balanceAfter ?? null,
    reference: doc.queue && doc.jobId ? { queue: doc.queue, job_id: doc.jobId } : null,
    date: doc.createdAt.toISOString(),
  };
}

const FIELDS = { kind: 1, reason: 1, feature: 1, amount: 1, balanceAfter: 1, queue: 1, jobId: 1, createdAt: 1 } as const;

export async function walletHistory(userId: string, query: WalletHistoryQuery): Promise<WalletHistoryResponse> {
  const filter = filterOf(userId, query);
  const [docs, total] = await Promise.all([
    LedgerEntry.find(filter, FIELDS)
      .sort({ createdAt: -1, _id: -1 })
      .skip((query.page - 1) * query.limit)
      .limit(query.limit)
      .lean<EntryDoc[]>(),
    LedgerEntry.countDocuments(filter),
  ]);
  return {
    success: true,
    entries: docs.map(toEntry),
    page: query.page,
    total,
    total_pages: Math.max(1, Math.ceil(total / query.limit)),
  };
}

/** One CSV cell: quoted, and never a formula when a spreadsheet opens it. */
export function csvCell(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  const safe = /^[=+\-@\t\r]/u.test(text) && typeof value !== "number" ? `'${text}` : text;
  return `"${safe.replace(/"/gu, '""')}"`;
}

export async function walletHistoryCsv(userId: string, query: WalletHistoryQuery): Promise<string> {
  const docs = await LedgerEntry.find(filterOf(userId, query), FIELDS)
    .sort({ createdAt: -1, _id: -1 })
    .limit(HISTORY_CSV_MAX_ROWS)
    .lean<EntryDoc[]>();
  const header = ["date", "kind", "feature", "coins", "balance_after", "queue", "job_id"];
  const rows = docs
    .map(toEntry)
    .map((e) =>
      [e.date, e.kind, e.feature, e.amount, e.balance_after, e.reference?.queue ?? null, e.reference?.job_id ?? null]
        .map(csvCell)
        .join(","),
    );
  return `${header.join(",")}\r\n${rows.join("\r\n")}${rows.length ? "\r\n" : ""}`;
}
