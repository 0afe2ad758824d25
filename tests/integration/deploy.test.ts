/**
 * The deployment files, checked with what runs on a machine without a Docker daemon
 * (scripts/check-compose.ts): `docker compose config -q` when the compose plugin exists, the parsed
 * compose structure, the Dockerfile rules and the documented environment.
 */
import { describe, expect, it } from "vitest";
import {
  checkCompose,
  checkDockerfile,
  checkDockerfiles,
  checkSupportFiles,
  composeAvailable,
  composeConfigProblems,
  configVariables,
  loadCompose,
  queryStringsLogged,
} from "../../scripts/check-compose";

describe("docker-compose.yml", () => {
  it.skipIf(!composeAvailable())("passes docker compose config", () => {
    expect(composeConfigProblems()).toEqual([]);
  });

  it("has the production shape: replica set, AOF Redis, API replicas, a worker per queue, volumes, no inline secrets", () => {
    expect(checkCompose()).toEqual([]);
  });

  it("keeps query strings (the webhook's and receipts' tokens) out of nginx's access log", () => {
    expect(checkSupportFiles().filter((p) => p.includes("query strings"))).toEqual([]);
    // nginx's default format, a format with the whole request line, and one with the arguments.
    expect(queryStringsLogged("server { listen 8080; }")).toHaveLength(1);
    expect(queryStringsLogged("server { access_log /var/log/nginx/access.log combined; }")).toHaveLength(1);
    expect(queryStringsLogged("log_format a '$remote_addr \"$request\"'; server { access_log /x a; }")).toHaveLength(1);
    expect(queryStringsLogged("log_format a '$uri $args'; server { access_log /x a; }")).toHaveLength(1);
    expect(queryStringsLogged("log_format a '$request_method $uri'; server { access_log /x a; }")).toEqual([]);
  });

  it("initiates the MongoDB replica set from its healthcheck and points the app at it", () => {
    const services = loadCompose().services as Record<string, any>;
    expect(services.mongo.healthcheck.test.join(" ")).toMatch(/rs\.initiate\(\{ _id: 'rs0'/u);
    expect(services.api.environment.MONGODB_URI).toContain("replicaSet=rs0");
    expect(services.api.deploy.replicas).toBe(2);
    expect(services["worker-chat"].environment.WORKER_QUEUES).toBe("chat");
    expect(services["worker-chat"].command).toEqual(["node", "--enable-source-maps", "workers/dist/main.mjs"]);
  });
});

describe("docker/Dockerfile", () => {
  it("is multi-stage, pinned, non-root, healthchecked", () => {
    expect(checkDockerfiles()).toEqual([]);
  });

  it("the rule checker catches the mistakes it is meant to", () => {
    const bad = [
      "FROM node:latest AS app",
      "ENV SESSION_SECRET=abc123",
      "ADD https://example.com/x.tgz /x.tgz",
      "RUN npm install",
      "CMD node api/src/main.ts",
    ].join("\n");
    const problems = checkDockerfile("bad", bad, ["app", "web"], new Set());
    const text = problems.join("\n");
    expect(text).toContain("multi-stage");
    expect(text).toContain("not pinned");
    expect(text).toContain("SESSION_SECRET set in the image");
    expect(text).toContain("ADD of a remote URL");
    expect(text).toContain("npm ci");
    expect(text).toContain("non-root USER");
    expect(text).toContain("exec form");
    expect(text).toContain("HEALTHCHECK");
    expect(text).toContain('target "web"');
  });
});

describe("environment documentation", () => {
  it("documents every config variable in .env.example and docs/operations.md, ships no secret", () => {
    expect(configVariables().length).toBeGreaterThan(20);
    expect(configVariables()).toContain("METRICS_TOKEN");
    expect(checkSupportFiles()).toEqual([]);
  });
});
