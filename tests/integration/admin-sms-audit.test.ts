import { describe, expect, it } from "vitest";
import { SmsIntegrationConfig } from "@storefront/shared/server";
import { adminClient } from "../support/client";
import { useDatabase } from "./admin-helpers";

useDatabase();

describe("SMS settings changes are audited", () => {
  it("records gateway create, update and delete and integration saves, never with a clear password", async () => {
    const admin = await adminClient();
    const gateway = {
      gatewayName: `audit-gw-${Date.now()}`,
      shortcode: "4455",
      port: 2775,
      smsType: "MT",
      apiUrl: "http://127.0.0.1:9/smpp",
      username: "smpp-user",
      password: "very-secret-password",
    };
    const created = await admin.post("/admin/sms-config.php", gateway);
    expect(created.status).toBe(201);
    const id = created.body.config.id;
    expect((await admin.request("PUT", "/admin/sms-config.php", { ...gateway, id, port: 2776 })).status).toBe(200);
    expect((await admin.request("DELETE", `/admin/sms-config.php?id=${id}`)).status).toBe(200);
    const current = (await admin.get("/sms/integration/config.php")).body.config;
    const saved = await admin.post("/sms/integration/config.php", { ...current, rate_limit_per_minute: 42 });
    expect(saved.status).toBe(200);

    const log = await admin.get("/admin/audit-log.php?limit=50");
    expect(log.status).toBe(200);
    const mine = log.body.logs.filter((e: { target_id: string | null }) => e.target_id === id);
    expect(mine.map((e: { action: string }) => e.action).sort()).toEqual([
      "sms_gateway.create",
      "sms_gateway.delete",
      "sms_gateway.update",
    ]);
    const update = mine.find((e: { action: string }) => e.action === "sms_gateway.update");
    expect(update.before.port).toBe(2775);
    expect(update.after.port).toBe(2776);
    const integration = log.body.logs.find((e: { action: string }) => e.action === "sms_integration.update");
    expect(integration.after.rate_limit_per_minute).toBe(42);
    expect(JSON.stringify(log.body)).not.toContain("very-secret-password");
  });

  it("records a webhook secret rotation and an integration save without either secret", async () => {
    const admin = await adminClient();
    const before = (await SmsIntegrationConfig.findById("sms").lean())!.webhook_secret;
    const current = (await admin.get("/sms/integration/config.php")).body.config;
    expect((await admin.post("/sms/integration/config.php", current)).status).toBe(200);
    const rotated = await admin.request("PUT", "/sms/integration/config.php", { action: "rotate_webhook_secret" });
    expect(rotated.status).toBe(200);
    const fresh: string = rotated.body.webhook_secret;

    const log = await admin.get("/admin/audit-log.php?limit=50");
    const actions = log.body.logs.map((e: { action: string }) => e.action);
    expect(actions).toContain("sms_integration.rotate_webhook_secret");
    expect(actions).toContain("sms_integration.update");
    const text = JSON.stringify(log.body);
    expect(before.length).toBeGreaterThan(0);
    expect(text).not.toContain(before);
    expect(text).not.toContain(fresh);
  });
});
