/** One phone, one account: every form of a number is stored, found and billed as one E.164 phone. */
import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migratePhones, migratePhonesOnce, User } from "@storefront/shared/server";
import { Client } from "../support/client";
import { superAdmin } from "./admin-helpers";

beforeAll(async () => {
  await mongoose.connect(inject("mongoUri"));
});
afterAll(async () => {
  await mongoose.disconnect();
});

/** A fresh North American number (+1 and ten digits) in E.164. */
function nanpNumber(): string {
  return `+1460${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
}

async function signup(phone: string, password = "secret-pass") {
  return new Client().post("/signup.php", { phone, password });
}

async function login(phone: string, password = "secret-pass") {
  return new Client().post("/login-session-fix.php", { phone, password });
}

describe("one phone, one account", () => {
  it("refuses a second signup with another form of the same number, with SPEC's 409 text", async () => {
    const phone = nanpNumber();
    const first = await signup(phone);
    expect(first.status).toBe(201);
    expect(first.body.phone).toBe(phone);
    for (const other of [
      phone.slice(1),
      `00${phone.slice(1)}`,
      `+1 (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`,
    ]) {
      const again = await signup(other, "another-pass");
      expect(again.status, other).toBe(409);
      expect(again.body).toMatchObject({
        code: "phone_taken",
        error: "This phone number is already subscribed. Please try logging in instead.",
      });
    }
    expect(await User.countDocuments({ phone: { $in: [phone, phone.slice(1), `00${phone.slice(1)}`] } })).toBe(1);
  });

  it("refuses a number libphonenumber finds impossible (400 naming phone) and keeps every real format", async () => {
    const phone = nanpNumber();
    // Country code 0 must not fall back to "+" and digits: that would be a second account beside the real number.
    for (const impossible of [`+0${phone.slice(2)}`, `000${phone.slice(2)}`, "+1555123456789", "+999123456789"]) {
      const res = await signup(impossible);
      expect(res.status, impossible).toBe(400);
      expect(res.body).toMatchObject({ field: "phone", error: expect.stringMatching(/^phone/u) });
    }
    expect(await User.countDocuments({ phone: { $regex: `${phone.slice(2)}$` } })).toBe(0);
    const forms = [
      phone,
      phone.slice(1),
      `00${phone.slice(1)}`,
      `+1 ${phone.slice(2, 5)} ${phone.slice(5, 8)} ${phone.slice(8)}`,
    ];
    const first = await signup(forms[0]!);
    expect(first.status).toBe(201);
    for (const form of forms.slice(1)) expect((await signup(form)).status, form).toBe(409);
    expect((await signup("+44 7911 123456".replace("123456", String(Math.floor(Math.random() * 9e5 + 1e5))))).status).toBe(201);
    expect((await signup(`00966 50 ${String(Math.floor(Math.random() * 9e6 + 1e6))}`)).status).toBe(201);
  });

  it("stores the E.164 form of a number typed without a prefix and logs in with any form of it", async () => {
    const phone = nanpNumber();
    const national = `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    const created = await signup(national);
    expect(created.status).toBe(201);
    expect(created.body.phone).toBe(phone);
    for (const form of [phone, phone.slice(1), national]) {
      const res = await login(form);
      expect(res.status, form).toBe(200);
      expect(res.body.user).toEqual({ id: created.body.user.id, phone, phoneStatus: "unproven" });
    }
  });

  it("finds a row stored before phones were canonical, and the migration rewrites it once", async () => {
    const phone = nanpNumber();
    const created = await signup(phone);
    await User.updateOne({ _id: created.body.user.id }, { $set: { phone: phone.slice(1) } });

    const res = await login(phone);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(created.body.user.id);
    expect((await signup(phone)).status).toBe(409);

    const report = await migratePhones("US");
    expect(report.duplicates.filter((d) => d.canonical === phone)).toEqual([]);
    expect((await User.findById(created.body.user.id).lean())?.phone).toBe(phone);
    const again = await migratePhones("US");
    expect(again.duplicates.filter((d) => d.canonical === phone)).toEqual([]);
    expect((await User.findById(created.body.user.id).lean())?.phone).toBe(phone);
  });

  it("is run by the API's first start on a data set and recorded, so later starts skip the scan", async () => {
    // The stack's API runs with the default country (US).
    const marker = await mongoose.connection.collection("migrations").findOne({ _id: "phones-e164:US" as never });
    expect(marker).toMatchObject({ scanned: expect.any(Number), rewritten: expect.any(Number), finishedAt: expect.any(Date) });
    expect(await migratePhonesOnce("US")).toBeNull();
  });

  it("reports two old rows of one number instead of merging them, and login opens the one the password fits", async () => {
    const phone = nanpNumber();
    const a = await signup(phone, "password-of-a");
    const b = await signup(nanpNumber(), "password-of-b");
    await User.updateOne({ _id: b.body.user.id }, { $set: { phone: phone.slice(1) } });

    const report = await migratePhones("US");
    expect(report.duplicates.filter((d) => d.canonical === phone)).toEqual([
      { canonical: phone, userId: b.body.user.id, phone: phone.slice(1), keptUserId: a.body.user.id },
    ]);
    expect((await User.findById(b.body.user.id).lean())?.phone).toBe(phone.slice(1));
    expect((await login(phone, "password-of-a")).body.user.id).toBe(a.body.user.id);
    expect((await login(phone, "password-of-b")).body.user.id).toBe(b.body.user.id);
  });

  it("finds a subscriber in the admin search whatever form the number is typed in", async () => {
    const phone = nanpNumber();
    const created = await signup(phone);
    const admin = await superAdmin();
    for (const typed of [phone, `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`]) {
      const res = await admin.get(`/admin/users.php?search=${encodeURIComponent(typed)}`);
      expect(res.status, typed).toBe(200);
      expect(
        res.body.users.map((u: { id: string }) => u.id),
        typed,
      ).toContain(created.body.user.id);
    }
  });
});
