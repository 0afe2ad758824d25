import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { attachJobMetrics, JOB_DURATION_BUCKETS, recordJobOutcome } from "@storefront/shared/server";
import { adminClient, Client, giveCoins, newUser } from "../support/client";
import { until } from "../support/realtime";

/** The value of one sample line `name{labels} value`, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf("}"));
    const pairs = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/gu)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => pairs[k] === v)) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
afterAll(async () => {
  await redis.quit();
});

describe("GET /api/metrics", () => {
  it("refuses anonymous callers, subscribers and a wrong bearer token", async () => {
    expect((await new Client().get("/metrics")).status).toBe(401);
    expect((await new Client().get("/metrics", { authorization: "Bearer not-the-metrics-token-000" })).status).toBe(401);
    const { client } = await newUser();
    expect((await client.get("/metrics")).status).toBe(401);
  });

  it("answers Prometheus text to an admin with HTTP figures labelled by route pattern, not raw URL", async () => {
    const anon = new Client();
    await anon.get("/health");
    await anon.get("/health?probe=1");
    await anon.get("/no-such-call-12345.php");
    const admin = await adminClient();
    await admin.get("/docs/assets/swagger-ui.css");
    const res = await admin.get("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/u);
    const text = res.body as string;
    expect(
      sample(text, "storefront_http_requests_total", { route: "/api/health", method: "GET", status: "200" }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, "storefront_http_request_duration_seconds_bucket", { route: "/api/health", le: "+Inf" }),
    ).toBeGreaterThanOrEqual(2);
    expect(sample(text, "storefront_http_requests_total", { route: "/api/<unmatched>", status: "404" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(text, "storefront_http_requests_total", { route: "/api/docs/assets/*", status: "200" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(text).not.toContain("probe=1");
    expect(text).not.toContain("no-such-call-12345");
    expect(text).toContain("storefront_process_cpu_seconds_total");
    expect(text).toMatch(/^storefront_socket_connections(\{[^}]*\})? \d+/mu);
  });

  it("reports queue depth and worker count per queue", async () => {
    const text = (await (await adminClient()).get("/metrics")).body as string;
    for (const queue of ["chat", "image", "video", "sms-reply"]) {
      expect(sample(text, "storefront_queue_jobs", { queue, state: "waiting" }), queue).toBeTypeOf("number");
      expect(sample(text, "storefront_queue_workers", { queue }), queue).toBeGreaterThanOrEqual(1);
    }
  });

  it("reports job durations and failure reasons recorded by any worker process through Redis", async () => {
    const queue = `metrics-probe-${process.pid}-${Date.now()}`;
    await recordJobOutcome(redis, queue, "completed", 0.3);
    await recordJobOutcome(redis, queue, "completed", 7);
    await recordJobOutcome(redis, queue, "failed", 0.02, "provider timeout after 30000 ms");
    const text = (await (await adminClient()).get("/metrics")).body as string;
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "0.05" })).toBe(1);
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "0.5" })).toBe(2);
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "+Inf" })).toBe(3);
    expect(sample(text, "storefront_job_duration_seconds_count", { queue })).toBe(3);
    expect(sample(text, "storefront_job_duration_seconds_sum", { queue })).toBeCloseTo(7.32, 5);
    expect(sample(text, "storefront_job_attempts_total", { queue, outcome: "completed" })).toBe(2);
    expect(sample(text, "storefront_job_failures_total", { queue, reason: "provider timeout after <n> ms" })).toBe(1);
  });

  it("still counts the cumulative bucket counters written before the per-bucket ones", async () => {
    const queue = `metrics-legacy-${process.pid}-${Date.now()}`;
    // As the earlier writer left them: one job of 0.2 s, counted under every bound from 0.25 up.
    await redis.sadd("metrics:jobs:queues", queue);
    const legacy = Object.fromEntries(JOB_DURATION_BUCKETS.filter((b) => b >= 0.25).map((b) => [`le:${b}`, 1]));
    await redis.hset(`metrics:jobs:${queue}`, { ...legacy, count: 1, sum: 0.2 });
    await recordJobOutcome(redis, queue, "completed", 0.3);
    const text = (await (await adminClient()).get("/metrics")).body as string;
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "0.1" })).toBe(0);
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "0.25" })).toBe(1);
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "0.5" })).toBe(2);
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "300" })).toBe(2);
    expect(sample(text, "storefront_job_duration_seconds_bucket", { queue, le: "+Inf" })).toBe(2);
  });

  it("sums a worker's job outcomes in memory and writes them in one go", async () => {
    const listeners: Record<string, (...args: any[]) => void> = {};
    const queue = `metrics-batch-${process.pid}-${Date.now()}`;
    const metrics = attachJobMetrics(
      { name: queue, on: (event: string, fn: (...args: any[]) => void) => (listeners[event] = fn) } as any,
      redis,
      60_000,
    );
    for (let i = 0; i < 50; i++) listeners.completed!({ processedOn: 1_000, finishedOn: 1_200 });
    listeners.failed!({ processedOn: 1_000, finishedOn: 1_100 }, new Error("job 42 timed out"));
    expect(await redis.exists(`metrics:jobs:${queue}`)).toBe(0);
    await metrics.flush();
    const hash = await redis.hgetall(`metrics:jobs:${queue}`);
    expect(hash).toMatchObject({
      "outcome:completed": "50",
      "outcome:failed": "1",
      "reason:job <n> timed out": "1",
      count: "51",
    });
    expect(Number(hash.sum)).toBeCloseTo(10.1, 5);
    await metrics.flush();
    expect((await redis.hgetall(`metrics:jobs:${queue}`)).count).toBe("51");
  });

  it("records BullMQ worker events through attachJobMetrics", async () => {
    const listeners: Record<string, (...args: any[]) => void> = {};
    const queue = `metrics-worker-${process.pid}-${Date.now()}`;
    attachJobMetrics({ name: queue, on: (event: string, fn: (...args: any[]) => void) => (listeners[event] = fn) } as any, redis);
    listeners.completed!({ processedOn: 1_000, finishedOn: 1_400 });
    listeners.failed!({ processedOn: 1_000, finishedOn: 1_100 }, new Error("content refused"));
    // The listeners record in the background: wait until both outcomes are counted.
    await until(async () => (await redis.hget(`metrics:jobs:${queue}`, "count")) === "2", 5_000, "both outcomes recorded");
    const hash = await redis.hgetall(`metrics:jobs:${queue}`);
    expect(hash).toMatchObject({ "outcome:completed": "1", "outcome:failed": "1", "reason:content refused": "1", count: "2" });
    expect(Number(hash.sum)).toBeCloseTo(0.5, 5);
  });

  it("reports recent job durations per queue from the jobs BullMQ retains", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const chat = await client.post("/textai/chat.php", {
      message: "what is 2 + 2?",
      userId: id,
      avatarType: "general",
      language: "en",
    });
    expect(chat.status).toBe(200);
    expect((await client.get("/session-check-simple.php")).status).toBe(200);
    expect((await client.get("/auth/session")).status).toBe(200);
    const text = (await (await adminClient()).get("/metrics")).body as string;
    // Routes served at several paths (documented path and alias) are labelled by the matched one.
    expect(
      sample(text, "storefront_http_requests_total", { route: "/api/textai/chat.php", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "storefront_http_requests_total", { route: "/api/session-check-simple.php", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, "storefront_http_requests_total", { route: "/api/auth/session", status: "200" })).toBeGreaterThanOrEqual(
      1,
    );
    const p50 = sample(text, "storefront_job_recent_duration_seconds", { queue: "chat", quantile: "0.5" });
    expect(p50).toBeGreaterThanOrEqual(0);
    expect(p50).toBeLessThan(60);
  });

  it("counts wallet ledger entries by kind", async () => {
    const admin = await adminClient();
    const before =
      sample((await admin.get("/metrics")).body, "storefront_wallet_ledger_entries_total", { kind: "admin_set" }) ?? 0;
    const { id } = await newUser();
    await giveCoins(id, 50);
    const after = sample((await admin.get("/metrics")).body, "storefront_wallet_ledger_entries_total", { kind: "admin_set" });
    expect(after).toBeGreaterThanOrEqual(before + 1);
  });
});
