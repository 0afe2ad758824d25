import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requestLog } from "./request-log";

const lines: Record<string, unknown>[] = [];
const log = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });

let server: ReturnType<express.Express["listen"]>;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(requestLog(log, (url) => url.replace(/secret=[^&]*/u, "secret=[hidden]")));
  app.get("/ok", (_req, res) => void res.json({ ok: true }));
  app.get("/refused", (_req, res) => void res.status(409).json({ ok: false }));
  app.get("/slow", (_req, res) => void setTimeout(() => res.json({ late: true }), 2000).unref());
  app.get("/logs", (req, res) => {
    req.log.warn({ detail: 1 }, "something to say");
    res.json({ same: req.log === req.log, id: req.id });
  });
  await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", () => resolve())));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  lines.length = 0;
});

/** The answer line, written once the response has finished (after the client has its body). */
async function answerLine(): Promise<Record<string, unknown> | undefined> {
  for (let i = 0; i < 50 && !lines.some((l) => l.responseTime !== undefined); i++) await new Promise((r) => setImmediate(r));
  return lines.find((l) => l.responseTime !== undefined);
}

describe("requestLog", () => {
  it("answers a valid incoming X-Request-Id and replaces one that is not", async () => {
    const kept = await fetch(`${base}/ok`, { headers: { "x-request-id": "abc-12345.x" } });
    expect(kept.headers.get("x-request-id")).toBe("abc-12345.x");
    const replaced = await fetch(`${base}/ok`, { headers: { "x-request-id": "bad id <script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/u);
  });

  it("logs a refusal at info with the request's id, method, URL and status, and nothing for a success", async () => {
    await fetch(`${base}/ok`);
    const res = await fetch(`${base}/refused?secret=hunter2&page=1`);
    const line = await answerLine();
    expect(line).toMatchObject({
      level: 30,
      msg: "request completed",
      req: { id: res.headers.get("x-request-id"), method: "GET", url: "/refused?secret=[hidden]&page=1" },
      res: { statusCode: 409 },
    });
    expect(lines).toHaveLength(1);
  });

  it("logs a client that left before its answer at info", async () => {
    await fetch(`${base}/slow`, { signal: AbortSignal.timeout(100) }).catch(() => undefined);
    for (let i = 0; i < 200 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: "request aborted", req: expect.objectContaining({ url: "/slow" }) }),
    ]);
  });

  it("gives the handlers one logger bound to the request", async () => {
    const res = await fetch(`${base}/logs`, { headers: { "x-request-id": "trace-me-please" } });
    expect(await res.json()).toEqual({ same: true, id: "trace-me-please" });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "something to say",
        detail: 1,
        req: { id: "trace-me-please", method: "GET", url: "/logs" },
      }),
    ]);
  });
});
