/**
 * Web Push on the running stack (issue 37): the API and workers send through `web-push` to a push
 * service on this machine (tests/peers/push-service.ts) that checks the VAPID signature and
 * decrypts each payload with the device's own keys (RFC 8291).
 */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import ar from "@storefront/shared/i18n/ar.json";
import en from "@storefront/shared/i18n/en.json";
import { PushSubscriptionModel } from "@storefront/shared/server";
import { Client, giveCoins, newUser } from "../support/client";
import { until } from "../support/realtime";
import { PushService, type PushSubscriptionJson } from "../peers/push-service";

const pushService = new PushService(inject("pushServiceTls"));
let publicKey = "";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
  await pushService.start();
  const key = await new Client().get("/push/key");
  expect(key.status).toBe(200);
  publicKey = key.body.publicKey;
});

afterAll(async () => {
  await pushService.stop();
  await mongoose.disconnect();
});

async function subscribe(client: Client, language: "en" | "ar"): Promise<PushSubscriptionJson> {
  const device = pushService.subscribe();
  const res = await client.post("/push/subscriptions", { ...device, language });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return device;
}

const devicesOf = (userId: string) => PushSubscriptionModel.countDocuments({ userId });

describe("Web Push", () => {
  it("brings a finished video to the subscribed device: which job and screen, in its language, nothing of the prompt", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 5000);
    const device = await subscribe(client, "ar");
    const prompt = "a private prompt about my knee pain";
    const started = await client.post("/videos/generate.php", { prompt, duration: 5, userId: id });
    expect(started.status).toBe(200);

    const push = await pushService.next(device);
    expect(JSON.parse(push.text)).toEqual({
      kind: "video.completed",
      id: started.body.video_id,
      title: ar.push.videoCompleted.title,
      body: ar.push.videoCompleted.body,
      lang: "ar",
      url: "/video-test",
      tag: `video-${started.body.video_id}`,
    });
    expect(push.text).not.toContain("knee");
    expect(push.vapidKey).toBe(publicKey);
    expect(push.claims).toMatchObject({ aud: pushService.origin, sub: expect.stringMatching(/^(?:mailto:|https:)/u) });
    expect(push.ttl).toBeGreaterThan(0);
    // The screen the push names shows the finished video to its owner.
    const status = await client.get(`/videos/check-status.php?id=${started.body.video_id}`);
    expect(status.body.video.status).toBe("completed");
    expect(pushService.refused).toEqual([]);
  });

  it("tells of a finished image and of the low-balance notice, in English for an English device", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 60);
    const device = await subscribe(client, "en");
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 15 })).status).toBe(200); // 45: crossed
    const low = JSON.parse((await pushService.next(device, 0)).text);
    expect(low).toEqual({ kind: "wallet.low", ...en.push.lowBalance, lang: "en", url: "/get-coins", tag: "wallet.low" });

    await giveCoins(id, 5000);
    const image = await client.post("/images/generate.php", { prompt: "a lighthouse at dusk", userId: id });
    expect(image.status).toBe(200);
    const done = JSON.parse((await pushService.next(device, 1)).text);
    expect(done).toMatchObject({ kind: "image.completed", ...en.push.imageCompleted, lang: "en", url: "/image-ai" });
    expect(done.id).toEqual(expect.any(String));
  });

  it("forgets a device its push service calls gone (410)", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 60);
    const kept = await subscribe(client, "en");
    const revoked = await subscribe(client, "en");
    pushService.revoke(revoked);
    expect(await devicesOf(id)).toBe(2);
    expect((await client.post("/wallet/use.php", { featureType: "text", tokens: 15 })).status).toBe(200);
    await pushService.next(kept);
    await until(async () => (await devicesOf(id)) === 1 || undefined, 10_000, "the gone device forgotten");
    expect(await PushSubscriptionModel.exists({ endpoint: revoked.endpoint })).toBeNull();
  });

  it("ends a session's subscriptions at logout, and the other sessions' at a password change", async () => {
    const { client: first, id, phone } = await newUser("first-pass-1");
    const second = new Client();
    expect((await second.post("/login-session-fix.php", { phone, password: "first-pass-1" })).status).toBe(200);
    const firstDevice = await subscribe(first, "en");
    await subscribe(second, "ar");
    expect(await devicesOf(id)).toBe(2);

    const changed = await first.post("/user/change-password.php", {
      currentPassword: "first-pass-1",
      newPassword: "second-pass-2",
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const left = await PushSubscriptionModel.find({ userId: id }).lean();
    expect(left.map((d) => d.endpoint)).toEqual([firstDevice.endpoint]);

    expect((await first.post("/logout.php")).status).toBe(200);
    expect(await devicesOf(id)).toBe(0);
  });

  it("refuses an endpoint that is not a push service, bad keys and visitors, naming the field", async () => {
    const { client } = await newUser();
    const device = pushService.subscribe();
    for (const endpoint of [
      "http://10.0.0.7/push/x",
      "https://127.0.0.1.example.com/push",
      "http://user:pw@127.0.0.1/push",
      "not a url",
    ]) {
      const res = await client.post("/push/subscriptions", { ...device, endpoint, language: "en" });
      expect(res.status, endpoint).toBe(400);
      expect(JSON.stringify(res.body), endpoint).toContain("endpoint");
    }
    const badKey = await client.post("/push/subscriptions", {
      ...device,
      keys: { p256dh: "!!", auth: device.keys.auth },
      language: "en",
    });
    expect(badKey.status).toBe(400);
    expect(JSON.stringify(badKey.body)).toContain("p256dh");
    const badLanguage = await client.post("/push/subscriptions", { ...device, language: "fr" });
    expect(badLanguage.status).toBe(400);
    expect((await new Client().post("/push/subscriptions", { ...device, language: "en" })).status).toBe(401);
  });
});
