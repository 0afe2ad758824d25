import { describe, expect, it } from "vitest";
import { Client } from "../support/client";

describe("health and readiness", () => {
  it("answers health while the process lives", async () => {
    const res = await new Client().get("/health");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
  });

  it("is ready when MongoDB, Redis and a worker per queue are reachable", async () => {
    const res = await new Client().get("/ready");
    expect(res.body).toEqual({ status: "ready", missing: [] });
    expect(res.status).toBe(200);
  });

  it("answers unknown API paths with a JSON 404, not the web app", async () => {
    const res = await new Client().get("/no-such-call.php");
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });
});
