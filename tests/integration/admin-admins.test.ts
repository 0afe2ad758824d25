import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { io } from "socket.io-client";
import { describe, expect, inject, it } from "vitest";
import { Admin, AuditLog } from "@storefront/shared/server";
import { Client } from "../support/client";
import { adminWithRole, put, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

const ADMINS = "/admin/admins.php";
const PASSWORD = "Correct-Horse-42";

const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}`;

async function login(username: string, password: string): Promise<Client> {
  const client = new Client();
  const res = await client.post("/admin/login.php", { username, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return client;
}

async function createViaApi(role: string, username = uniqueName(role)) {
  const res = await (await superAdmin()).post(ADMINS, { username, password: PASSWORD, role });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.admin as { id: string; username: string; role: string; is_active: boolean };
}

/** How a Socket.IO handshake with the client's cookies ends: "connected" or the server's refusal. */
async function socketAnswer(client: Client): Promise<string> {
  const socket = io(inject("baseUrl"), {
    path: "/socket.io",
    extraHeaders: { cookie: client.cookieHeader() },
    transports: ["websocket"],
    reconnection: false,
  });
  try {
    return await new Promise<string>((resolve) => {
      socket.on("connect", () => resolve("connected"));
      socket.on("connect_error", (error) => resolve(error.message));
    });
  } finally {
    socket.close();
  }
}

describe("admin/admins.php", () => {
  it("lists administrators with role, active flag, last login and creation, to admins:manage only", async () => {
    const created = await createViaApi("support");
    const before = (await (await superAdmin()).get(ADMINS)).body.admins.find((a: { id: string }) => a.id === created.id);
    expect(before).toMatchObject({ username: created.username, role: "support", is_active: true, last_login_at: null });
    expect(Date.parse(before.created_at)).not.toBeNaN();

    await login(created.username, PASSWORD);
    const listed = await (await superAdmin()).get(ADMINS);
    expect(listed.status).toBe(200);
    const row = listed.body.admins.find((a: { id: string }) => a.id === created.id);
    expect(Date.parse(row.last_login_at)).not.toBeNaN();
    expect(JSON.stringify(listed.body)).not.toMatch(/passwordHash|argon2/u);

    expect((await new Client().get(ADMINS)).status).toBe(401);
    for (const role of ["admin", "manager", "support"] as const) {
      const other = await adminWithRole(role);
      expect((await other.get(ADMINS)).status).toBe(403);
      expect((await other.post(ADMINS, { username: uniqueName("x"), password: PASSWORD, role: "super_admin" })).status).toBe(403);
      expect((await put(other, ADMINS, { id: created.id, role: "super_admin" })).status).toBe(403);
    }
  });

  it("creates an administrator who can log in; audits it without the password", async () => {
    const created = await createViaApi("manager");
    expect(created).toMatchObject({ role: "manager", is_active: true });
    const client = await login(created.username, PASSWORD);
    expect((await client.get("/admin/session.php")).body.admin).toMatchObject({ id: created.id, role: "manager" });

    const entry = await AuditLog.findOne({ action: "admin.create", targetId: created.id }).lean();
    expect(entry).toMatchObject({ adminUsername: inject("adminUsername") });
    expect(JSON.stringify(entry)).not.toContain(PASSWORD);
    expect(JSON.stringify(entry)).not.toMatch(/passwordHash|argon2/u);

    const again = await (await superAdmin()).post(ADMINS, { username: created.username, password: PASSWORD, role: "admin" });
    expect(again.status).toBe(409);
  });

  it("refuses weak passwords, bad usernames and unknown roles, naming the field", async () => {
    const admin = await superAdmin();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: uniqueName("a"), password: "short-pass1", role: "admin" }, "password"],
      [{ username: uniqueName("a"), password: "aaaaaaaaaaaaaaaa", role: "admin" }, "password"],
      [{ username: "samename-user", password: "xx-samename-user-xx", role: "admin" }, "password"],
      [{ username: "a b", password: PASSWORD, role: "admin" }, "username"],
      [{ username: uniqueName("a"), password: PASSWORD, role: "owner" }, "role"],
      [{ password: PASSWORD, role: "admin" }, "username"],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post(ADMINS, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(new RegExp(`^${field}`, "u"));
    }
    expect((await put(admin, ADMINS, { id: "a".repeat(24) })).status).toBe(400);
    expect((await put(admin, ADMINS, { id: "a".repeat(24), role: "admin" })).status).toBe(404);
    expect((await put(admin, ADMINS, { id: "zzz", role: "admin" })).body.error).toMatch(/^id/u);
  });

  it("resets a password: the target's live session gets 401 at once, the new password works, the old one not", async () => {
    const created = await createViaApi("support");
    const session = await login(created.username, PASSWORD);
    expect((await session.get("/admin/dashboard-data.php")).status).toBe(200);

    const newPassword = "Another-Secret-77";
    const reset = await put(await superAdmin(), ADMINS, { id: created.id, password: newPassword });
    expect(reset.status).toBe(200);
    expect((await session.get("/admin/dashboard-data.php")).status).toBe(401);
    expect((await session.get("/admin/session.php")).status).toBe(401);

    expect((await new Client().post("/admin/login.php", { username: created.username, password: PASSWORD })).status).toBe(401);
    await login(created.username, newPassword);

    const entry = await AuditLog.findOne({ action: "admin.update", targetId: created.id }).sort({ createdAt: -1 }).lean();
    expect(entry?.after).toMatchObject({ password_reset: true });
    expect(JSON.stringify(entry)).not.toContain(newPassword);
    expect(JSON.stringify(entry)).not.toMatch(/passwordHash|argon2/u);
  });

  it("a reset password's old cookie opens no socket, even before any HTTP call has refused it", async () => {
    const created = await createViaApi("support");
    const session = await login(created.username, PASSWORD);
    expect(await socketAnswer(session)).toBe("connected");
    expect((await put(await superAdmin(), ADMINS, { id: created.id, password: "Another-Secret-78" })).status).toBe(200);
    // No HTTP call with the old cookie in between: the socket handshake decides on its own.
    expect(await socketAnswer(session)).toBe("unauthorized");
    expect((await session.get("/admin/session.php")).status).toBe(401);
  });

  it("changes a role (effective on the live session) and deactivates / reactivates; a deactivated session stays ended", async () => {
    const created = await createViaApi("support");
    const session = await login(created.username, PASSWORD);
    expect((await session.get("/admin/queues.php")).status).toBe(403);

    const admin = await superAdmin();
    const promoted = await put(admin, ADMINS, { id: created.id, role: "admin" });
    expect(promoted.body.admin).toMatchObject({ role: "admin" });
    expect((await session.get("/admin/queues.php")).status).toBe(200);

    expect((await put(admin, ADMINS, { id: created.id, isActive: false })).body.admin).toMatchObject({ is_active: false });
    expect((await session.get("/admin/session.php")).status).toBe(401);
    expect((await new Client().post("/admin/login.php", { username: created.username, password: PASSWORD })).status).toBe(401);

    expect((await put(admin, ADMINS, { id: created.id, isActive: true })).body.admin).toMatchObject({ is_active: true });
    expect((await session.get("/admin/session.php")).status).toBe(401);
    await login(created.username, PASSWORD);

    const actions = await AuditLog.find({ action: "admin.update", targetId: created.id }).lean();
    expect(actions.map((a) => (a.after as { role: string; is_active: boolean }).is_active)).toEqual([true, false, true]);
  });

  it("forbids demoting or deactivating oneself, but lets one change one's own password and stay signed in", async () => {
    const me = await createViaApi("super_admin");
    const client = await login(me.username, PASSWORD);
    const demote = await put(client, ADMINS, { id: me.id, role: "admin" });
    expect(demote.status).toBe(403);
    expect((await put(client, ADMINS, { id: me.id, isActive: false })).status).toBe(403);
    const other = await login(me.username, PASSWORD);
    expect((await put(client, ADMINS, { id: me.id, password: "My-New-Secret-99" })).status).toBe(200);
    expect((await client.get(ADMINS)).status).toBe(200);
    expect((await other.get(ADMINS)).status).toBe(401);
    expect(await Admin.exists({ _id: me.id, role: "super_admin", isActive: true })).toBeTruthy();
  });
});

describe("npm run admin -- create", () => {
  const run = promisify(execFile);
  const cli = (args: string[], env: Record<string, string>) =>
    run(process.execPath, ["--import", "tsx", "api/src/cli/admin.ts", ...args], {
      env: { ...process.env, MONGODB_URI: inject("mongoUri"), REDIS_URL: inject("redisUrl"), LOG_LEVEL: "warn", ...env },
      timeout: 60_000,
    });

  it("creates a super admin from NEW_ADMIN_PASSWORD who can log in, and refuses a weak password", async () => {
    const username = uniqueName("cli");
    const out = await cli(["create", username, "super_admin"], { NEW_ADMIN_PASSWORD: PASSWORD });
    expect(JSON.parse(out.stdout.trim().split("\n").pop()!)).toMatchObject({ created: { username, role: "super_admin" } });
    const client = await login(username, PASSWORD);
    expect((await client.get(ADMINS)).status).toBe(200);

    const weak = await cli(["create", uniqueName("cli"), "admin"], { NEW_ADMIN_PASSWORD: "short" }).catch((e: unknown) => e);
    expect(weak).toMatchObject({ code: 2 });
    expect((weak as { stderr: string }).stderr).toMatch(/password must be at least 12/u);
    const noPassword = await cli(["create", uniqueName("cli"), "admin"], {}).catch((e: unknown) => e);
    expect((noPassword as { stderr: string }).stderr).toMatch(/NEW_ADMIN_PASSWORD/u);
  });
});
