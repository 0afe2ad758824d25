import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { Client, newUser, uniquePhone } from "../support/client";

describe("signup", () => {
  it("creates an account and answers with the user's id and phone", async () => {
    const client = new Client();
    const phone = uniquePhone();
    const res = await client.post("/signup.php", { phone: `  ${phone}  `, password: "secret1" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, user: { phone }, phone });
    expect(res.body.user.id).toMatch(/^[a-f0-9]{24}$/u);
    expect(JSON.stringify(res.body)).not.toMatch(/secret1|passwordHash|argon2/u);
  });

  it("answers 409 with SPEC's 'already subscribed' text and the phone_taken code for a taken phone", async () => {
    const phone = uniquePhone();
    await new Client().post("/signup.php", { phone, password: "secret1" });
    const res = await new Client().post("/signup.php", { phone, password: "another1" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      error: "This phone number is already subscribed. Please try logging in instead.",
      code: "phone_taken",
    });
  });

  it("rejects a password under 6 characters and bad phones with 400 naming the field", async () => {
    const short = await new Client().post("/signup.php", { phone: uniquePhone(), password: "12345" });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ success: false, field: "password" });
    for (const phone of ["abc", "12", "+12345678901234567", "", 12345678]) {
      const res = await new Client().post("/signup.php", { phone, password: "secret1" });
      expect(res.status, String(phone)).toBe(400);
      expect(res.body.field).toBe("phone");
    }
  });
});

describe("login, session and logout", () => {
  it("answers 401 with SPEC's text for a wrong password or unknown phone", async () => {
    const { phone } = await newUser("right-pass");
    for (const body of [
      { phone, password: "wrong-pass" },
      { phone: uniquePhone(), password: "right-pass" },
    ]) {
      const res = await new Client().post("/login-session-fix.php", body);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("Invalid phone number or password. Please check your credentials.");
    }
  });

  it("sets an httpOnly SameSite=Lax session cookie, regenerated at login", async () => {
    const phone = uniquePhone();
    const client = new Client();
    await client.post("/signup.php", { phone, password: "secret1" });
    const before = await client.get("/session-check-simple.php");
    expect(before.body).toEqual({ success: true, authenticated: false, user: null });
    const first = await client.post("/login-session-fix.php", { phone, password: "secret1" });
    const setCookie = first.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/sf\.sid=/u);
    expect(setCookie).toMatch(/HttpOnly/iu);
    expect(setCookie).toMatch(/SameSite=Lax/iu);
    const firstSid = client.cookie("sf.sid");
    await client.post("/login-session-fix.php", { phone, password: "secret1" });
    expect(client.cookie("sf.sid")).not.toBe(firstSid);
    const session = await client.get("/session-check-simple.php");
    expect(session.body).toMatchObject({ success: true, authenticated: true, user: { id: first.body.user.id, phone } });
  });

  it("destroys the session at logout so the old cookie no longer works", async () => {
    const { client } = await newUser();
    const stolen = new Client();
    (stolen as unknown as { cookies: Map<string, string> }).cookies.set("sf.sid", client.cookie("sf.sid")!);
    expect((await stolen.get("/wallet/get.php")).status).toBe(200);
    expect((await client.post("/logout.php")).status).toBe(200);
    expect((await stolen.get("/wallet/get.php")).status).toBe(401);
    expect((await client.get("/session-check-simple.php")).body.authenticated).toBe(false);
  });

  it("rate limits login attempts per phone with a clear 429", async () => {
    const phone = uniquePhone();
    await new Client().post("/signup.php", { phone, password: "secret1" });
    const statuses: number[] = [];
    for (let i = 0; i < 65; i++) {
      statuses.push((await new Client().post("/login-session-fix.php", { phone, password: "nope-nope" })).status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await new Client().post("/login-session-fix.php", { phone, password: "nope-nope" });
    expect(limited.body.error).toMatch(/Too many login attempts/u);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("acting on another user", () => {
  it("answers 403 when a client sends someone else's userId", async () => {
    const alice = await newUser();
    const bob = await newUser();
    expect((await alice.client.get(`/wallet/get.php?userId=${bob.id}`)).status).toBe(403);
    expect((await alice.client.get(`/user/profile.php?id=${bob.id}`)).status).toBe(403);
    expect((await alice.client.post("/wallet/use.php", { userId: bob.id, featureType: "text", tokens: 1 })).status).toBe(403);
    expect((await alice.client.get(`/user/profile.php?userId=${alice.id}`)).status).toBe(200);
  });

  it("answers 401 without a session", async () => {
    for (const path of ["/wallet/get.php", "/user/profile.php"]) {
      const res = await new Client().get(path);
      expect(res.status).toBe(401);
      expect(res.body.success).toBe(false);
    }
  });
});

describe("profile", () => {
  async function png(width: number, height: number): Promise<Buffer> {
    return sharp({ create: { width, height, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
  }

  it("updates display name, country and avatar; the phone stays read-only", async () => {
    const { client, id, phone } = await newUser();
    const form = new FormData();
    form.set("displayName", "  Layla  ");
    form.set("country", "eg");
    form.set("phone", "+19999999999");
    form.set("avatar", new Blob([new Uint8Array(await png(64, 64))], { type: "image/png" }), "me.png");
    const res = await client.request("POST", "/user/update-profile.php", form);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, displayName: "Layla", country: "EG", phone, id });
    const avatar = await fetch(`${client.baseUrl}${res.body.avatar}`, { headers: { cookie: client.cookieHeader() } });
    expect(avatar.status).toBe(200);
    expect((await sharp(Buffer.from(await avatar.arrayBuffer())).metadata()).width).toBe(64);
    const other = await newUser();
    expect(
      (await fetch(`${client.baseUrl}${res.body.avatar}`, { headers: { cookie: other.client.cookieHeader() } })).status,
    ).toBe(404);
    const profile = await client.get("/user/profile.php");
    expect(profile.body).toMatchObject({ phone, displayName: "Layla", country: "EG" });
  });

  it("rejects a non-image avatar, one over 5 MB, and an unknown country with SPEC's messages", async () => {
    const { client } = await newUser();
    const notImage = new FormData();
    notImage.set("avatar", new Blob([Buffer.from("just text")], { type: "image/png" }), "fake.png");
    const r1 = await client.request("POST", "/user/update-profile.php", notImage);
    expect(r1.status).toBe(400);
    expect(r1.body.error).toBe("Please select a valid image file");

    const big = new FormData();
    big.set("avatar", new Blob([Buffer.alloc(5 * 1024 * 1024 + 10)], { type: "image/png" }), "big.png");
    const r2 = await client.request("POST", "/user/update-profile.php", big);
    expect(r2.status).toBe(413);
    expect(r2.body.error).toBe("Image size must be less than 5MB");

    const badCountry = new FormData();
    badCountry.set("country", "ZZ");
    const r3 = await client.request("POST", "/user/update-profile.php", badCountry);
    expect(r3.status).toBe(400);
    expect(r3.body.field).toBe("country");
  });
});
