/** What each administrator role may do (docs/permissions.md is generated from this matrix). */
import type { AdminRole } from "./constants";

export const ADMIN_PERMISSIONS = [
  "stats:view",
  "users:view",
  "users:toggle",
  "users:edit_wallet",
  /** Anything that adds coins to a wallet: package assignment (and so its renewals), setting a balance. */
  "coins:grant",
  "packages:view",
  "packages:manage",
  "packages:assign",
  "wallet_config:view",
  "wallet_config:edit",
  "sms:view",
  "sms:manage",
  "queues:view",
  "queues:manage",
  "audit:view",
  "admins:manage",
] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<AdminRole, readonly AdminPermission[]> = {
  super_admin: ADMIN_PERMISSIONS,
  admin: ADMIN_PERMISSIONS.filter((p) => p !== "audit:view" && p !== "admins:manage"),
  manager: [
    "stats:view",
    "users:view",
    "users:toggle",
    "packages:view",
    "packages:manage",
    "packages:assign",
    "wallet_config:view",
    "sms:view",
    "queues:view",
  ],
  support: ["stats:view", "users:view", "users:toggle", "packages:view", "packages:assign", "sms:view"],
};

export function roleAllows(role: AdminRole, permission: AdminPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
