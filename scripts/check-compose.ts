/**
 * Checks docker-compose.yml, docker/Dockerfile, docker/nginx.conf, .dockerignore and .env.example
 * with what runs on a machine without a Docker daemon: `docker compose config -q` when the compose
 * plugin is installed, and always a structural check of the parsed YAML plus a small Dockerfile
 * rule set (pinned bases, multi-stage, non-root USER, healthchecks, exec-form CMD, no secrets).
 *
 *   npx tsx scripts/check-compose.ts     # prints problems, exits 1 when there are any
 *
 * tests/integration/deploy.test.ts runs the same checks in `npm test`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { QUEUE_NAMES } from "@storefront/shared";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);
const SECRET_NAME = /(SECRET|PASSWORD|TOKEN|API_KEY|_KEY)$/u;
/** A reference to the environment (`${VAR}`, `${VAR:-x}`, `${VAR:?msg}`), never a literal value. */
const ONLY_INTERPOLATION = /^\$\{[A-Z0-9_]+(?:(?::?[-?])[^}]*)?\}$/u;

function read(file: string): string {
  return readFileSync(path.join(root, file), "utf8");
}

/** Every variable name of the zod env schema in shared/src/server/config.ts. */
export function configVariables(): string[] {
  const source = read("shared/src/server/config.ts");
  const start = source.indexOf("const envSchema = z.object({");
  const end = source.indexOf("\n});", start);
  if (start < 0 || end < 0) throw new Error("envSchema not found in shared/src/server/config.ts");
  return [...source.slice(start, end).matchAll(/^\s{2}([A-Z][A-Z0-9_]*):/gmu)].map((m) => m[1]!);
}

/** Variables named in .env.example, set (`X=`) or shown with their default (`# X=`). */
export function envExampleVariables(): Set<string> {
  return new Set([...read(".env.example").matchAll(/^#?\s?([A-Z][A-Z0-9_]*)=/gmu)].map((m) => m[1]!));
}

function imagePinned(ref: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/u.test(ref)) return true;
  const tag = /:([^/:@]+)$/u.exec(ref)?.[1];
  return Boolean(tag && tag !== "latest" && /\d+\.\d+/u.test(tag));
}

function environmentOf(service: Dict): Dict {
  const env = service.environment;
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((line) => {
        const [k, ...v] = String(line).split("=");
        return [k, v.join("=")];
      }),
    );
  }
  return isDict(env) ? env : {};
}

function commandText(service: Dict): string {
  const command = service.command;
  return Array.isArray(command) ? command.join(" ") : String(command ?? "");
}

function healthText(service: Dict): string {
  const hc = service.healthcheck;
  if (!isDict(hc)) return "";
  return Array.isArray(hc.test) ? hc.test.join(" ") : String(hc.test ?? "");
}

export function loadCompose(): Dict {
  const doc: unknown = parse(read("docker-compose.yml"), { merge: true });
  if (!isDict(doc) || !isDict(doc.services)) throw new Error("docker-compose.yml has no services");
  return doc;
}

export function checkCompose(): string[] {
  const problems: string[] = [];
  const doc = loadCompose();
  const services = doc.services as Record<string, Dict>;
  const need = (ok: boolean, message: string) => {
    if (!ok) problems.push(`docker-compose.yml: ${message}`);
  };

  for (const name of ["mongo", "redis", "api", "web"]) need(isDict(services[name]), `service "${name}" is missing`);
  const workerServices = Object.entries(services).filter(([, s]) => typeof environmentOf(s).WORKER_QUEUES === "string");
  for (const queue of QUEUE_NAMES) {
    need(
      workerServices.some(([, s]) => String(environmentOf(s).WORKER_QUEUES).split(",").includes(queue)),
      `no worker service serves the "${queue}" queue (WORKER_QUEUES)`,
    );
  }

  for (const [name, service] of Object.entries(services)) {
    need(
      service.restart === "unless-stopped" || service.restart === "always",
      `${name}: restart policy should be unless-stopped`,
    );
    if (typeof service.image === "string" && !service.build)
      need(imagePinned(service.image), `${name}: image "${service.image}" is not pinned to a version`);
    if (!service.build) need(typeof service.image === "string", `${name}: neither build nor image`);
    const hc = service.healthcheck;
    const disabled = isDict(hc) && hc.disable === true;
    const isWorker = typeof environmentOf(service).WORKER_QUEUES === "string";
    need(isDict(hc) && (disabled ? isWorker : healthText(service).length > 0), `${name}: needs a healthcheck`);
    for (const [key, value] of Object.entries(environmentOf(service))) {
      const text = String(value ?? "");
      if (SECRET_NAME.test(key))
        need(text === "" || ONLY_INTERPOLATION.test(text), `${name}: ${key} must come from .env, not inline`);
      const literal = text.replace(/\$\{[^}]*\}/gu, "");
      if (/^(redis|rediss|mongodb(\+srv)?):\/\/[^@/]*:[^@/]+@/u.test(literal))
        need(false, `${name}: ${key} holds an inline password`);
    }
    if (name === "api" || isWorker) {
      need(service.container_name === undefined, `${name}: container_name prevents --scale`);
      need(service.ports === undefined, `${name}: host ports prevent --scale (publish through web)`);
      need(
        Array.isArray(service.volumes) && service.volumes.some((v) => String(v).endsWith(":/data")),
        `${name}: media volume at /data (DATA_DIR) missing`,
      );
      need(environmentOf(service).DATA_DIR === "/data", `${name}: DATA_DIR should be /data`);
      need(
        String(environmentOf(service).MONGODB_URI ?? "").includes("replicaSet="),
        `${name}: MONGODB_URI should name the replica set`,
      );
      need(Boolean(service.env_file), `${name}: secrets should come from the .env file (env_file)`);
    }
    if (isWorker) need(Boolean(service.stop_grace_period), `${name}: stop_grace_period lets active jobs finish on SIGTERM`);
  }

  const mongo = services.mongo ?? {};
  need(/^mongo:7[.\d]*/u.test(String(mongo.image)), "mongo: image should be MongoDB 7");
  need(commandText(mongo).includes("--replSet"), "mongo: must run as a replica set (--replSet)");
  need(healthText(mongo).includes("rs.initiate"), "mongo: healthcheck must initiate the replica set");
  need(
    Array.isArray(mongo.volumes) && mongo.volumes.some((v) => String(v).endsWith(":/data/db")),
    "mongo: data volume at /data/db missing",
  );

  const redis = services.redis ?? {};
  need(/^redis:7[.\d]*/u.test(String(redis.image)), "redis: image should be Redis 7");
  need(/--appendonly yes/u.test(commandText(redis)), "redis: append-only persistence (--appendonly yes) missing");
  need(Array.isArray(redis.volumes) && redis.volumes.some((v) => String(v).endsWith(":/data")), "redis: data volume missing");

  const api = services.api ?? {};
  const replicas = isDict(api.deploy) ? Number(api.deploy.replicas) : 1;
  need(replicas >= 2, "api: run at least 2 replicas (deploy.replicas)");
  need(healthText(api).includes("/api/ready"), "api: healthcheck should call /api/ready");
  need(String(environmentOf(api).HOST) === "0.0.0.0", "api: HOST must be 0.0.0.0 inside the container");

  const web = services.web ?? {};
  need(Array.isArray(web.ports) && web.ports.length > 0, "web: publishes no port");

  const volumes = isDict(doc.volumes) ? Object.keys(doc.volumes) : [];
  for (const volume of ["mongo-data", "redis-data", "media"]) need(volumes.includes(volume), `named volume "${volume}" missing`);

  const text = read("docker-compose.yml");
  const documented = envExampleVariables();
  for (const [, variable] of text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/gu)) {
    need(documented.has(variable!), `\${${variable}} is not documented in .env.example`);
  }
  return problems;
}

interface Stage {
  name: string;
  base: string;
  lines: string[];
}

/** Splits a Dockerfile into stages, joining continuation lines and resolving ARG defaults in FROM. */
export function dockerfileStages(text: string): Stage[] {
  const lines = text
    .replace(/\\\r?\n/gu, " ")
    .split(/\r?\n/u)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [instruction, ...rest] = line.split(/\s+/u);
    const upper = instruction!.toUpperCase();
    if (upper === "ARG" && stages.length === 0) {
      const [k, v] = rest.join(" ").split("=");
      if (k && v) args[k] = v;
    } else if (upper === "FROM") {
      const from = rest.filter((r) => !r.startsWith("--"));
      const base = from[0]!.replace(/\$\{?([A-Z0-9_]+)\}?/gu, (_m, k: string) => args[k] ?? "");
      const asIndex = from.findIndex((r) => r.toUpperCase() === "AS");
      stages.push({ name: asIndex > 0 ? from[asIndex + 1]! : String(stages.length), base, lines: [] });
    } else {
      stages.at(-1)?.lines.push(line);
    }
  }
  return stages;
}

/** The stage and every stage it builds FROM (its lineage). */
function lineage(stages: Stage[], stage: Stage): Stage[] {
  const out = [stage];
  let current = stage;
  for (;;) {
    const parent = stages.find((s) => s.name === current.base);
    if (!parent || out.includes(parent)) return out;
    out.push(parent);
    current = parent;
  }
}

export function checkDockerfile(file: string, text: string, targets: string[], composeHealthchecked: Set<string>): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) problems.push(`${file}: ${message}`);
  };
  const stages = dockerfileStages(text);
  need(stages.length >= 2, "should be a multi-stage build");
  const names = new Set(stages.map((s) => s.name));
  for (const stage of stages) {
    if (!names.has(stage.base))
      need(imagePinned(stage.base), `stage ${stage.name}: base image "${stage.base}" is not pinned to a version`);
    for (const line of stage.lines) {
      need(!/^ADD\s+https?:/iu.test(line), `stage ${stage.name}: ADD of a remote URL (use a pinned, verified download)`);
      need(!/\bnpm install\b/u.test(line), `stage ${stage.name}: use npm ci (the lockfile), not npm install`);
      const env = /^(ENV|ARG)\s+(.*)$/iu.exec(line);
      if (env) {
        for (const [, key, value] of env[2]!.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/gu)) {
          need(
            !(SECRET_NAME.test(key!) && value),
            `stage ${stage.name}: ${key} set in the image (secrets come from the environment)`,
          );
        }
      }
    }
  }
  for (const target of targets) {
    const stage = stages.find((s) => s.name === target);
    need(Boolean(stage), `target "${target}" used by docker-compose.yml is missing`);
    if (!stage) continue;
    const chain = lineage(stages, stage);
    const users = chain.flatMap((s) => s.lines.filter((l) => /^USER\s/iu.test(l)));
    const user = stage.lines
      .filter((l) => /^USER\s/iu.test(l))
      .at(-1)
      ?.split(/\s+/u)[1];
    need(
      Boolean(user) && !/^(root|0)(:|$)/u.test(user!),
      `target ${target}: must end with a non-root USER (has ${users.length ? user : "none"})`,
    );
    const cmd = chain.flatMap((s) => s.lines).filter((l) => /^(CMD|ENTRYPOINT)\s/iu.test(l));
    if (cmd.length)
      need(
        cmd.every((l) => /^(CMD|ENTRYPOINT)\s+\[/iu.test(l)),
        `target ${target}: CMD/ENTRYPOINT in exec form so SIGTERM reaches the process`,
      );
    const healthcheck = chain.some((s) => s.lines.some((l) => /^HEALTHCHECK\s+(?!NONE)/iu.test(l)));
    need(healthcheck || composeHealthchecked.has(target), `target ${target}: needs a HEALTHCHECK (or a compose healthcheck)`);
  }
  return problems;
}

export function checkDockerfiles(): string[] {
  const doc = loadCompose();
  const byFile = new Map<string, { targets: Set<string>; healthchecked: Set<string> }>();
  for (const service of Object.values(doc.services as Record<string, Dict>)) {
    if (!isDict(service.build)) continue;
    const file = path.join(String(service.build.context ?? "."), String(service.build.dockerfile ?? "Dockerfile"));
    const entry = byFile.get(file) ?? { targets: new Set<string>(), healthchecked: new Set<string>() };
    const target = String(service.build.target ?? "");
    entry.targets.add(target);
    if (healthText(service)) entry.healthchecked.add(target);
    byFile.set(file, entry);
  }
  const problems: string[] = [];
  if (byFile.size === 0) problems.push("docker-compose.yml: no service is built from a Dockerfile");
  for (const [file, { targets, healthchecked }] of byFile) {
    if (!existsSync(path.join(root, file))) {
      problems.push(`${file}: missing`);
      continue;
    }
    problems.push(...checkDockerfile(file, read(file), [...targets], healthchecked));
  }
  return problems;
}

export function checkSupportFiles(): string[] {
  const problems: string[] = [];
  const ignore = existsSync(path.join(root, ".dockerignore")) ? read(".dockerignore").split(/\r?\n/u) : [];
  for (const entry of ["**/node_modules", ".env", ".git"]) {
    if (!ignore.includes(entry)) problems.push(`.dockerignore: should exclude ${entry}`);
  }
  const documented = envExampleVariables();
  for (const variable of configVariables()) {
    if (!documented.has(variable)) problems.push(`.env.example: ${variable} (shared/src/server/config.ts) is not documented`);
  }
  const example = read(".env.example");
  for (const [, key, value] of example.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gmu)) {
    if (SECRET_NAME.test(key!) && value!.trim()) problems.push(`.env.example: ${key} must be empty (no shipped secrets)`);
  }
  const operations = existsSync(path.join(root, "docs/operations.md")) ? read("docs/operations.md") : "";
  for (const variable of configVariables()) {
    if (!operations.includes(`\`${variable}\``))
      problems.push(`docs/operations.md: ${variable} is not in the configuration reference`);
  }
  const nginx = existsSync(path.join(root, "docker/nginx.conf")) ? read("docker/nginx.conf") : "";
  if (!/location \/socket\.io\/[\s\S]*?Upgrade \$http_upgrade/u.test(nginx))
    problems.push("docker/nginx.conf: /socket.io/ must pass the websocket upgrade");
  if (!/location \/api\/[\s\S]*?proxy_pass/u.test(nginx)) problems.push("docker/nginx.conf: /api/ must be proxied to the API");
  if (!/^\s*gzip_static on;/mu.test(nginx))
    problems.push("docker/nginx.conf: gzip_static must send the build's precompressed copies");
  problems.push(...queryStringsLogged(nginx));
  return problems;
}

/**
 * Query strings carry secrets (the SMS webhook's `?token=`, receipts' `?t=`): every access log nginx
 * writes uses a format without them (nginx's default "combined" logs `$request`, the whole URL).
 */
export function queryStringsLogged(nginx: string): string[] {
  const formats = new Map([...nginx.matchAll(/log_format\s+(\S+)\s+([^;]*);/gu)].map(([, name, body]) => [name!, body!]));
  const logs = [...nginx.matchAll(/\baccess_log\s+([^;]*);/gu)].map(([, args]) => args!.trim().split(/\s+/u));
  const problems: string[] = [];
  if (!logs.some(([where]) => where !== "off"))
    problems.push("docker/nginx.conf: no access_log of its own (the default format logs query strings)");
  for (const [where, format] of logs) {
    if (where === "off") continue;
    const body = format ? formats.get(format) : undefined;
    if (!body || /\$(?:request|request_uri|args|query_string|arg_\w+)\b/u.test(body))
      problems.push(`docker/nginx.conf: access_log ${where} ${format ?? "(combined)"} would log query strings`);
  }
  return problems;
}

/** Whether the Docker compose plugin (client side only) is installed here. */
export function composeAvailable(): boolean {
  return spawnSync("docker", ["compose", "version"], { encoding: "utf8" }).status === 0;
}

/** `docker compose config -q` with a throw-away .env holding sample secrets (needs no daemon). */
export function composeConfigProblems(): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "compose-check-"));
  try {
    const envFile = path.join(dir, ".env");
    writeFileSync(envFile, "SESSION_SECRET=0123456789abcdef0123\nREDIS_PASSWORD=sample\n");
    const result = spawnSync(
      "docker",
      ["compose", "--env-file", envFile, "-f", path.join(root, "docker-compose.yml"), "config", "-q"],
      {
        encoding: "utf8",
        cwd: root,
      },
    );
    return result.status === 0 ? [] : [`docker compose config: ${result.stderr.trim() || result.stdout.trim()}`];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function checkAll(): string[] {
  return [
    ...(composeAvailable() ? composeConfigProblems() : []),
    ...checkCompose(),
    ...checkDockerfiles(),
    ...checkSupportFiles(),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!composeAvailable()) console.log("docker compose plugin not installed: structural checks only");
  const problems = checkAll();
  for (const problem of problems) console.log(`✗ ${problem}`);
  console.log(problems.length ? `${problems.length} problem(s)` : "compose file, Dockerfile and .env.example look right");
  process.exit(problems.length ? 1 : 0);
}
