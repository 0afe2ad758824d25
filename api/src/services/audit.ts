/** The one writer of the audit log: every administrator change goes through `recordAudit`. */
import type { AuditEntry } from "@storefront/shared";
import { AuditLog, type AuditLogDoc } from "@storefront/shared/server";
import type { AuthedAdmin } from "../middleware/auth";

export interface AuditChange {
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

/** Plain JSON copy, so Dates, ObjectIds and mongoose documents are stored as readable values. */
function snapshot(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

export async function recordAudit(admin: AuthedAdmin, change: AuditChange): Promise<void> {
  await AuditLog.create({
    adminId: admin.id,
    adminUsername: admin.username,
    adminRole: admin.role,
    action: change.action,
    targetType: change.targetType,
    targetId: change.targetId,
    before: snapshot(change.before),
    after: snapshot(change.after),
  });
}

function toEntry(doc: AuditLogDoc): AuditEntry {
  return {
    id: String(doc._id),
    admin: { id: doc.adminId, username: doc.adminUsername, role: doc.adminRole },
    action: doc.action,
    target_type: doc.targetType,
    target_id: doc.targetId ?? null,
    before: doc.before ?? null,
    after: doc.after ?? null,
    created_at: doc.createdAt.toISOString(),
  };
}

export interface AuditQuery {
  page: number;
  limit: number;
  action?: string;
  adminId?: string;
}

export async function listAudit(query: AuditQuery) {
  const filter: Record<string, unknown> = {};
  if (query.action) filter.action = query.action;
  if (query.adminId) filter.adminId = query.adminId;
  const [docs, total] = await Promise.all([
    AuditLog.find(filter)
      .sort({ createdAt: -1, _id: -1 })
      .skip((query.page - 1) * query.limit)
      .limit(query.limit)
      .lean<AuditLogDoc[]>(),
    AuditLog.countDocuments(filter),
  ]);
  return {
    success: true as const,
    logs: docs.map(toEntry),
    total,
    page: query.page,
    total_pages: Math.max(1, Math.ceil(total / query.limit)),
  };
}
