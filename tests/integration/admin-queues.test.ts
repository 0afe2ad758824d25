import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AuditLog } from "@storefront/shared/server";
import { Client, giveCoins, newUser } from "../support/client";
import { adminWithRole, superAdmin, useDatabase } from "./admin-helpers";

useDatabase();

let redis: Redis;
let maintenance: Queue;

beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
  maintenance = new Queue("maintenance", { connection: redis });
});
afterAll(async () => {
  await maintenance.close();
  await redis.quit();
});

/** A maintenance job naming no schedule fails for good: a real failed job to look at. */
async function failedJob(): Promise<string> {
  const job = await maintenance.add(`no-such-schedule-${Date.now()}`, {}, { attempts: 1 });
  for (let i = 0; i < 100; i++) {
    if ((await job.getState()) === "failed") return String(job.id);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("job did not fail");
}

describe("admin/queues.php", () => {
  it("answers counts per queue, throughput and durations, and failed jobs with their error", async () => {
    const admin = await superAdmin();
    const jobId = await failedJob();
    const res = await admin.get("/admin/queues.php");
    expect(res.status).toBe(200);
    const names = res.body.queues.map((q: { name: string }) => q.name);
    expect(names).toEqual(expect.arrayContaining(["chat", "image", "video", "sms-reply", "maintenance"]));
    const m = res.body.queues.find((q: { name: string }) => q.name === "maintenance");
    expect(Object.keys(m.counts).sort()).toEqual(["active", "completed", "delayed", "failed", "waiting"]);
    expect(m.counts.failed).toBeGreaterThanOrEqual(1);
    expect(m.jobs_per_minute).toBeGreaterThanOrEqual(1);
    const failed = res.body.failed.find((f: { id: string }) => f.id === jobId);
    expect(failed).toMatchObject({ queue: "maintenance", error: expect.stringContaining("no schedule named") });
  });

  it("retries and removes a failed job for roles with queues:manage, auditing it", async () => {
    const admin = await superAdmin();
    const jobId = await failedJob();
    const retried = await admin.post("/admin/queues.php", { queue: "maintenance", jobId, action: "retry" });
    expect(retried.status).toBe(200);
    const job = await maintenance.getJob(jobId);
    expect(job!.attemptsStarted).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 100 && (await job!.getState()) !== "failed"; i++) await new Promise((r) => setTimeout(r, 100));
    const removed = await admin.post("/admin/queues.php", { queue: "maintenance", jobId, action: "remove" });
    expect(removed.status).toBe(200);
    expect(await maintenance.getJob(jobId)).toBeUndefined();
    expect((await admin.post("/admin/queues.php", { queue: "maintenance", jobId, action: "remove" })).status).toBe(404);
    const audit = await AuditLog.find({ targetId: `maintenance:${jobId}` })
      .sort({ createdAt: 1 })
      .lean();
    expect(audit.map((a) => a.action)).toEqual(["queue_job.retry", "queue_job.remove"]);
  });

  it("validates actions and applies the role matrix", async () => {
    const admin = await superAdmin();
    expect((await admin.post("/admin/queues.php", { queue: "nope", jobId: "1", action: "retry" })).status).toBe(400);
    const badAction = await admin.post("/admin/queues.php", { queue: "chat", jobId: "1", action: "explode" });
    expect(badAction.status).toBe(400);
    expect(badAction.body.error).toMatch(/action/u);
    const manager = await adminWithRole("manager");
    expect((await manager.get("/admin/queues.php")).status).toBe(200);
    expect((await manager.post("/admin/queues.php", { queue: "chat", jobId: "1", action: "remove" })).status).toBe(403);
    const support = await adminWithRole("support");
    expect((await support.get("/admin/queues.php")).status).toBe(403);
    expect((await new Client().get("/admin/queues.php")).status).toBe(401);
  });

  it("serves Bull Board behind the admin session", async () => {
    expect((await new Client().get("/admin/queues/board/")).status).toBe(401);
    expect((await (await adminWithRole("support")).get("/admin/queues/board/")).status).toBe(403);
    const admin = await superAdmin();
    const page = await admin.get("/admin/queues/board/");
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain("<html");
    const script = String(page.body).match(/src="(static\/js\/[^"]+\.js)"/u);
    expect(script).not.toBeNull();
    expect((await admin.get(`/admin/queues/board/${script![1]!}`)).status).toBe(200);
    const api = await admin.get("/admin/queues/board/api/queues?activeQueue=maintenance&page=1&jobsPerPage=10");
    expect(api.status).toBe(200);
    expect(api.body.queues.map((q: { name: string }) => q.name)).toContain("maintenance");
    const manager = await adminWithRole("manager");
    expect((await manager.get("/admin/queues/board/api/queues")).status).toBe(200);
    expect((await manager.request("PUT", "/admin/queues/board/api/queues/maintenance/retry/failed")).status).toBe(403);
  });

  it("never shows a job's payload, reply or numbers in Bull Board or the Queues section, to any role", async () => {
    const marker = `Private-${Date.now().toString(36)}`;
    const { client, id, phone } = await newUser();
    await giveCoins(id, 100);
    const doctorText = `${marker} I have a rash and my number is ${phone}`;
    const asked = await client.post("/textai/chat.php", { message: doctorText, avatarType: "doctor", language: "en" });
    expect(asked.status).toBe(200);
    const jobId = asked.body.jobId as string;
    const reply = asked.body.message as string;

    // A failure whose reason quotes the job's own text (here its name, as a provider quotes a prompt).
    const quoted = `no-such-schedule ${marker}`;
    const failing = await maintenance.add(quoted, { message: quoted, phone }, { attempts: 1 });
    await expect.poll(() => failing.getState(), { timeout: 15_000 }).toBe("failed");

    for (const role of ["manager", "admin", "super_admin"] as const) {
      const viewer = await adminWithRole(role);
      const answers = [
        await viewer.get("/admin/queues/board/api/queues?activeQueue=chat&status=completed&page=1&jobsPerPage=50"),
        await viewer.get(`/admin/queues/board/api/queues/chat/${jobId}`),
        await viewer.get("/admin/queues/board/api/queues?activeQueue=maintenance&status=failed&page=1&jobsPerPage=50"),
        await viewer.get(`/admin/queues/board/api/queues/maintenance/${failing.id}`),
        await viewer.get("/admin/queues.php"),
      ];
      for (const answer of answers) {
        expect(answer.status, role).toBe(200);
        // The stand-in job's name is the test's own (the product names jobs by kind: "doctor", "text"...).
        const text = JSON.stringify(answer.body).replaceAll(JSON.stringify(quoted), '"stand-in"');
        for (const secret of [marker, phone, phone.slice(1), reply, id]) {
          const at = text.indexOf(secret);
          expect(text, `${role}: ${secret} in ${text.slice(Math.max(0, at - 300), at + 100)}`).not.toContain(secret);
        }
      }
      const job = answers[1]!.body.job;
      expect(job).toMatchObject({ id: jobId, data: { hidden: true, bytes: expect.any(Number) }, stacktrace: [] });
      expect(job.data.bytes).toBeGreaterThan(doctorText.length);
      const failed = answers[4]!.body.failed.find((f: { id: string }) => f.id === String(failing.id));
      expect(failed).toMatchObject({
        queue: "maintenance",
        error: expect.stringContaining("[hidden]"),
        bytes: expect.any(Number),
      });
      // Express routes without regard to case: every spelling of the hidden views is hidden.
      for (const view of ["logs", "LOGS", "Logs/", "flow", "FLOW"])
        expect((await viewer.get(`/admin/queues/board/api/queues/chat/${jobId}/${view}`)).status, view).toBe(404);
    }
  });

  it("pushes queues:stats to the admins room", async () => {
    const admin = await superAdmin();
    const socket = io(inject("baseUrl"), {
      path: "/socket.io",
      extraHeaders: { cookie: admin.cookieHeader() },
      transports: ["websocket"],
    });
    try {
      const event = await new Promise<{ at: string; queues: Record<string, Record<string, number>> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no queues:stats within 15 s")), 15_000);
        socket.on("queues:stats", (payload) => {
          clearTimeout(timer);
          resolve(payload);
        });
        socket.on("connect_error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
      expect(Object.keys(event.queues)).toEqual(expect.arrayContaining(["chat", "maintenance"]));
      expect(event.queues.chat).toMatchObject({
        waiting: expect.any(Number),
        failed: expect.any(Number),
        jobs_per_minute: expect.any(Number),
      });
    } finally {
      socket.close();
    }
  });
});
