/** Wallet features, subscription packages and administrator roles of SPEC §3 and §7. */

export const FEATURES = ["text", "doctor", "image", "video", "sms", "audio"] as const;

export type Feature = (typeof FEATURES)[number];

export const SUBSCRIPTION_TYPES = ["daily", "weekly", "monthly"] as const;

export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];

export const SUBSCRIPTION_PERIOD_MS: Record<SubscriptionType, number> = {
  daily: 24 * 3600_000,
  weekly: 7 * 24 * 3600_000,
  monthly: 30 * 24 * 3600_000,
};

export const FALLBACK_PACKAGES = [
  { name: "Daily", coins: 500, price: 0.5, subscription_type: "daily", auto_renew: true, description: "500 coins every day" },
  {
    name: "Weekly",
    coins: 4000,
    price: 3,
    subscription_type: "weekly",
    auto_renew: true,
    description: "4000 coins every week (14% savings)",
  },
  {
    name: "Monthly",
    coins: 20000,
    price: 10,
    subscription_type: "monthly",
    auto_renew: true,
    description: "20000 coins every month (33% savings)",
  },
] as const;

export const ADMIN_ROLES = ["super_admin", "admin", "manager", "support"] as const;

export type AdminRole = (typeof ADMIN_ROLES)[number];
