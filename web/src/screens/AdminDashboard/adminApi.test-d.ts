/**
 * Compile-time checks, read by `npm run typecheck` (tsc -p web) and run by nothing: each
 * administrator call's query string is typed by its route's query schema (shared/src/schemas).
 */
import type { adminApi } from "./adminApi";

type QueryOf<K extends "users" | "audit" | "smsLogs"> = Parameters<(typeof adminApi)[K]>[0];

export const users: QueryOf<"users"> = { page: 2, limit: 50, search: "0501" };
// @ts-expect-error adminUsersQuerySchema has no `phone`: the user list is searched with `search`
export const usersByPhone: QueryOf<"users"> = { page: 1, phone: "0501" };

export const audit: QueryOf<"audit"> = { page: 1, limit: 20, action: "user.toggle" };
// @ts-expect-error auditLogQuerySchema's page is an integer (or its digits), not a boolean
export const auditPage: QueryOf<"audit"> = { page: true };

export const smsLogs: QueryOf<"smsLogs"> = { action: "messages", direction: "inbound", date_from: "2026-11-01" };
// @ts-expect-error smsLogsQuerySchema's direction is inbound or outbound (or "" for both)
export const smsLogsSideways: QueryOf<"smsLogs"> = { action: "messages", direction: "sideways" };
// @ts-expect-error the log action filter is one of SMS_LOG_ACTIONS
export const smsLogsUnknownAction: QueryOf<"smsLogs"> = { log_action: "sms_lost" };
