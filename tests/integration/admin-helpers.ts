/** Shared setup of the admin back-office suites: a mongoose connection and admins of each role. */
import mongoose from "mongoose";
import { afterAll, beforeAll, expect, inject } from "vitest";
import type { AdminRole } from "@storefront/shared";
import { Admin } from "@storefront/shared/server";
import { hashPassword } from "../../api/src/services/passwords";
import { adminClient, Client } from "../support/client";

export function useDatabase(): void {
  beforeAll(async () => {
    await mongoose.connect(inject("mongoUri"));
  });
  afterAll(async () => {
    await mongoose.disconnect();
  });
}

const passwordHash = hashPassword("role-password-123");

/** Creates an administrator of the role directly in the database and logs a client in as it. */
export async function adminWithRole(role: AdminRole): Promise<Client> {
  const username = `${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  await Admin.create({ username, passwordHash: await passwordHash, role });
  const client = new Client();
  const res = await client.post("/admin/login.php", { username, password: "role-password-123" });
  expect(res.status).toBe(200);
  return client;
}

export function put(client: Client, path: string, body: unknown) {
  return client.request("PUT", path, body);
}

export function del(client: Client, path: string) {
  return client.request("DELETE", path);
}

let superAdminClient: Promise<Client> | undefined;

/**
 * The test super admin, logged in once per file: admin logins are rate-limited per username, and
 * every suite of a run shares that budget.
 */
export function superAdmin(): Promise<Client> {
  superAdminClient ??= adminClient();
  return superAdminClient;
}

/** Sets a user's balance and tier through admin/update-user-tier.php (one ledger entry). */
export async function setCoins(userId: string, coins: number, tier = 1): Promise<void> {
  const res = await (await superAdmin()).post("/admin/update-user-tier.php", { userId, newCoins: coins, newTier: tier });
  expect(res.status).toBe(200);
}
