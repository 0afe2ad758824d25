import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startStack, type Stack } from "../../scripts/lib/stack";
import { vapidKeys } from "../../scripts/lib/vapid";
import { pushServiceCertificate } from "../peers/push-service";

export const TEST_ADMIN = { username: "root-admin", password: "test-admin-password-1" };

/**
 * The run's limits and switches, given to the stack's API and to every extra API process a suite
 * starts (tests/support/api-process.ts), so those share the budget the suites were written for.
 */
export const TEST_LIMITS: Record<string, string> = {
  LOGIN_RATE_LIMIT_PER_MINUTE: "60",
  // Every suite logs in from 127.0.0.1: the per-address limit is exercised in its own test.
  LOGIN_RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
  // The SMS gateway peers listen on 127.0.0.1; the refusal of private addresses is tested on
  // an API process of its own started without this (tests/integration/sms-integration.test.ts).
  SMS_GATEWAY_ALLOW_PRIVATE: "true",
  // The offline operator billing declines purchases above this price (tests/integration/wallet-buy.test.ts).
  OFFLINE_BILLING_DECLINE_ABOVE: "5000",
  // The offline demo store: subscribers may buy (for nothing) so the purchase suites run; a stack
  // without it refuses purchases (tests/browser/get-coins-billing.test.ts).
  OPERATOR_BILLING: "offline-demo",
  // Every suite redeems from 127.0.0.1; the per-user limit is what tests/integration/redemption-codes.test.ts checks.
  REDEEM_RATE_LIMIT_PER_IP_PER_HOUR: "100000",
  // Likewise for signups and failed webhook calls: tests/integration/web-protections.test.ts
  // proves these limits on API processes of its own with small ones.
  SIGNUP_RATE_LIMIT_PER_IP_PER_HOUR: "100000",
  WEBHOOK_FAILURE_LIMIT_PER_MINUTE: "100000",
  // Every page the browser suites open reads the public price list from 127.0.0.1.
  STOREFRONT_RATE_LIMIT_PER_IP_PER_MINUTE: "100000",
};

let stack: Stack | undefined;
let dataDir = "";

export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(path.join(tmpdir(), "storefront-test-"));
  stack = await startStack({
    dataDir,
    persist: false,
    logDir: path.resolve("test-artifacts/logs"),
    env: {
      NODE_ENV: "test",
      SESSION_SECRET: "test-session-secret-0123456789",
      ADMIN_USERNAME: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      LOG_LEVEL: "warn",
      ...TEST_LIMITS,
      // Web Push to the tests' own push service on this machine (tests/peers/push-service.ts).
      ...vapidKeys(dataDir, {}),
      PUSH_SERVICES: "https://127.0.0.1",
      NODE_EXTRA_CA_CERTS: pushServiceCertificate(dataDir).certFile,
    },
  });
  project.provide("baseUrl", stack.apiUrls[0]!);
  project.provide("mongoUri", stack.mongoUri);
  project.provide("redisUrl", stack.redisUrl);
  project.provide("dataDir", dataDir);
  project.provide("pushServiceTls", pushServiceCertificate(dataDir));
  project.provide("adminUsername", TEST_ADMIN.username);
  project.provide("adminPassword", TEST_ADMIN.password);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
