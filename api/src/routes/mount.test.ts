import type { AddressInfo } from "node:net";
import express, { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AppContext } from "../context";
import { defineRoute, TAGS } from "./define";
import { mountRoutes } from "./mount";

const answer = z.object({ route: z.unknown(), params: z.record(z.string(), z.string()) });
const routes = [
  defineRoute({
    method: "get",
    paths: ["/wallet/get.php", "/wallet"],
    tag: TAGS.wallet,
    summary: "a literal route with an alias",
    auth: "none",
    response: answer,
    errors: [],
    handler: ({ req }) => ({ route: req.route?.path, params: req.params as Record<string, string> }),
  }),
  defineRoute({
    method: "get",
    paths: ["/items/:id"],
    tag: TAGS.wallet,
    summary: "a route with a parameter",
    auth: "none",
    response: answer,
    errors: [],
    handler: ({ req }) => ({ route: req.route?.path, params: req.params as Record<string, string> }),
  }),
];

let server: ReturnType<express.Express["listen"]>;
let base: string;

beforeAll(async () => {
  const app = express();
  const ctx = { config: { NODE_ENV: "test" } } as AppContext;
  app.use("/api", mountRoutes(Router(), routes, ctx));
  app.use((_req, res) => void res.status(404).json({ missing: true }));
  await new Promise<void>((resolve) => (server = app.listen(0, "127.0.0.1", () => resolve())));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = async (path: string, method = "GET") => {
  const res = await fetch(`${base}${path}`, { method });
  return {
    status: res.status,
    body: (await res.json()) as { route?: unknown; params?: Record<string, string>; missing?: boolean },
  };
};

describe("mountRoutes", () => {
  it("answers a literal path as written through its own router (the route is that path alone)", async () => {
    expect(await get("/wallet/get.php")).toEqual({ status: 200, body: { route: "/wallet/get.php", params: {} } });
    expect(await get("/wallet")).toEqual({ status: 200, body: { route: "/wallet", params: {} } });
  });

  it("still answers what Express matched before: another letter case, a trailing slash, parameters", async () => {
    const paths = ["/wallet/get.php", "/wallet"];
    expect(await get("/WALLET/Get.php")).toEqual({ status: 200, body: { route: paths, params: {} } });
    expect(await get("/wallet/get.php/")).toEqual({ status: 200, body: { route: paths, params: {} } });
    expect(await get("/items/42")).toEqual({ status: 200, body: { route: ["/items/:id"], params: { id: "42" } } });
  });

  it("passes a method the path has no route for on to what follows the router", async () => {
    expect(await get("/wallet/get.php", "POST")).toEqual({ status: 404, body: { missing: true } });
  });
});
