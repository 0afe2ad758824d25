/**
 * The Helm chart (deploy/helm/storefront), checked without a cluster: `helm lint --strict` and
 * `helm template` with the default values and the chart's ci/ files (minimal, everything on); every
 * rendered object validated against the Kubernetes 1.31 and 1.37 schemas (kubernetes-validate) and
 * KEDA's and the Prometheus Operator's CRDs; the queue names and the list KEDA reads against the
 * code's own constants and BullMQ's keys, with KEDA's own Redis query run on a real Redis; and the
 * chart's programs started as the pods would start them (the rendered command, port, probes and
 * environment, nothing else) against the run's database and a Redis of their own.
 *
 * helm (built from the Go module proxy) and the kubernetes-validate venv are installed under the
 * cache once per machine (scripts/lib/helm.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { CHARGED_QUEUES, QUEUE_NAMES } from "@storefront/shared";
import { closeQueues, createQueues } from "@storefront/shared/server";
import { SERVER_PROGRAMS } from "../../scripts/lib/build-server";
import { configVariables, dockerfileStages, loadCompose } from "../../scripts/check-compose";
import {
  CHART_DIR,
  KEDA_SCHEMAS,
  VALUES_FILES,
  ensureHelm,
  ensureManifestValidator,
  lintChart,
  renderChart,
  root,
  runHelm,
  validateManifests,
  type Manifest as RenderedManifest,
} from "../../scripts/lib/helm";
import { freePort, startRedis, type RunningService } from "../../scripts/lib/infra";

/** A rendered object, read freely (its shape is what the schemas check). */
type Manifest = RenderedManifest & Record<string, any>;
const render = (...args: Parameters<typeof renderChart>) => renderChart(...args) as Manifest[];
type Renders = Record<keyof typeof VALUES_FILES, Manifest[]>;
let helm = "";
let python = "";
let renders: Renders;
const started = Date.now();

const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const values = parse(readFileSync(path.join(CHART_DIR, "values.yaml"), "utf8")) as Record<string, any>;

beforeAll(() => {
  const h = ensureHelm();
  const v = ensureManifestValidator();
  helm = h.path;
  python = v.path;
  if (h.installMs || v.installMs)
    console.log(
      `[helm] installed: helm ${(h.installMs / 1000).toFixed(1)} s, kubernetes-validate ${(v.installMs / 1000).toFixed(1)} s`,
    );
  renders = {
    default: render(helm, VALUES_FILES.default),
    minimal: render(helm, VALUES_FILES.minimal),
    full: render(helm, VALUES_FILES.full),
  };
}, 900_000);

afterAll(() => console.log(`[helm] file took ${((Date.now() - started) / 1000).toFixed(1)} s`));

const ofKind = (docs: Manifest[], kind: string) => docs.filter((d) => d.kind === kind);
const byName = (docs: Manifest[], kind: string, suffix: string) => {
  const found = docs.find((d) => d.kind === kind && d.metadata.name.endsWith(suffix));
  if (!found) throw new Error(`no ${kind} named *${suffix}`);
  return found;
};
/** The pod template of a Deployment, Job or CronJob. */
function podSpec(doc: Manifest): any {
  if (doc.kind === "CronJob") return doc.spec.jobTemplate.spec.template.spec;
  return doc.spec.template.spec;
}
const workloads = (docs: Manifest[]) => docs.filter((d) => ["Deployment", "Job", "CronJob"].includes(d.kind));
function podLabels(doc: Manifest): Record<string, string> {
  return doc.kind === "CronJob" ? doc.spec.jobTemplate.spec.template.metadata.labels : doc.spec.template.metadata.labels;
}
const envValue = (container: any, name: string) => container.env?.find((e: any) => e.name === name)?.value;
const workerDeployments = (docs: Manifest[]) =>
  ofKind(docs, "Deployment").filter((d) => envValue(d.spec.template.spec.containers[0], "WORKER_QUEUES") !== undefined);

describe("helm lint and helm template", () => {
  it("lint --strict passes with the default, minimal and full values", () => {
    for (const files of Object.values(VALUES_FILES)) expect(lintChart(helm, files)).toEqual([]);
  });

  it("renders every part with everything on, and the least with the minimal values", () => {
    const kinds = (docs: Manifest[]) => [...new Set(docs.map((d) => d.kind))].sort();
    expect(kinds(renders.full)).toEqual(
      [
        "ConfigMap",
        "CronJob",
        "Deployment",
        "HorizontalPodAutoscaler",
        "Ingress",
        "Job",
        "NetworkPolicy",
        "PersistentVolumeClaim",
        "PodDisruptionBudget",
        "ScaledObject",
        "Secret",
        "Service",
        "ServiceAccount",
        "ServiceMonitor",
        "TriggerAuthentication",
      ].sort(),
    );
    expect(kinds(renders.minimal)).toEqual(["ConfigMap", "Deployment", "Service"]);
  });

  it("refuses values that cannot work: a queue scaled to zero, max below min, a controller it does not know", () => {
    const refused = (set: string[]) =>
      runHelm(helm, ["template", "x", CHART_DIR, "--kube-version", "1.31.0", ...set.flatMap((s) => ["--set", s])]);
    const zero = refused(["workers.queues.chat.minReplicas=0"]);
    expect(zero.status).not.toBe(0);
    expect(zero.stderr).toContain("/workers/queues/chat/minReplicas");
    const below = refused(["workers.queues.video.minReplicas=5", "workers.queues.video.maxReplicas=2"]);
    expect(below.stderr).toContain("workers.queues.video: maxReplicas (2) is below minReplicas (5)");
    expect(refused(["ingress.controller=haproxy"]).status).not.toBe(0);
    // A misspelt billing would otherwise only fail at the API's start.
    const billing = refused(["config.OPERATOR_BILLING=ofline"]);
    expect(billing.status).not.toBe(0);
    expect(billing.stderr).toContain("OPERATOR_BILLING");
    expect(refused(["secrets.values.REDIS_PASSWORD=p@ss:word"]).stderr).toContain("REDIS_PASSWORD");
  });
});

describe("schemas", () => {
  // One run of the validator for the renders and for a copy broken on purpose (it loads the schemas once).
  let result: ReturnType<typeof validateManifests>;
  let good: { source: string; doc: Manifest }[];
  beforeAll(() => {
    good = Object.entries(renders).flatMap(([source, docs]) => docs.map((doc) => ({ source, doc })));
    const broken = structuredClone(renders.full);
    byName(broken, "Deployment", "-api").spec.template.spec.containers[0].readinesProbe = {};
    byName(broken, "ScaledObject", "-worker-chat").spec.minReplicas = 1;
    byName(broken, "HorizontalPodAutoscaler", "-api").spec.maxReplicas = "ten";
    const unknown = { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" } } as Manifest;
    result = validateManifests(python, [...good, ...[...broken, unknown].map((doc) => ({ source: "broken", doc }))]);
  });

  it("every rendered object is valid for Kubernetes 1.31 and 1.37, KEDA 2.20 and the Prometheus Operator", () => {
    expect(result.problems.filter((p) => !p.includes("(broken)"))).toEqual([]);
    const validated = (kind: string) =>
      ["default", "minimal", "full"].reduce((n, s) => n + (result.validated[s]?.[kind] ?? 0), 0);
    expect(validated("ScaledObject")).toBe(8);
    expect(validated("TriggerAuthentication")).toBe(1);
    expect(validated("ServiceMonitor")).toBe(1);
    const kinds = new Set(good.map((g) => g.doc.kind));
    expect([...kinds].reduce((n, kind) => n + validated(kind), 0)).toBe(good.length);
  });

  it("the validation refuses a misspelt field, a wrong type and a kind with no schema", () => {
    const text = result.problems.filter((p) => p.includes("(broken)")).join("\n");
    expect(text).toMatch(/Deployment\/storefront-api .*'readinesProbe' was unexpected.*Kubernetes 1\.31/u);
    expect(text).toMatch(/ScaledObject\/storefront-worker-chat .*'minReplicas' was unexpected.*CRD schema/u);
    expect(text).toMatch(/HorizontalPodAutoscaler\/storefront-api .*: spec\.maxReplicas: 'ten' is not of type 'integer'/u);
    expect(text).toContain("Couldn't find schema for kind Widget");
  });
});

/** The metadata names KEDA's Redis scaler reads (`keda:"name=a;b, order=..."` tags of redis_scaler.go). */
function kedaRedisMetadataNames(): Set<string> {
  const source = readFileSync(path.join(KEDA_SCHEMAS, "redis_scaler.go"), "utf8");
  const names = new Set<string>();
  for (const [, spec, order] of source.matchAll(/keda:"name=([^,"]+),\s*order=([^,"]+)/gu)) {
    if (order!.includes("triggerMetadata")) for (const name of spec!.split(";")) names.add(name.trim());
  }
  return names;
}

/** The Lua script KEDA's Redis list scaler runs with KEYS[1] = listName. */
function kedaListLengthScript(): string {
  const source = readFileSync(path.join(KEDA_SCHEMAS, "redis_scaler.go"), "utf8");
  const script = /luaScript := `([\s\S]*?)`/u.exec(source)?.[1];
  if (!script) throw new Error("KEDA's list length script not found in redis_scaler.go");
  return script;
}

describe("queues and KEDA", () => {
  let redis: RunningService;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await client?.quit();
    await redis?.stop();
  });

  it("one worker Deployment per queue of shared/src/queues.ts, maintenance alone and never scaled", () => {
    for (const docs of Object.values(renders)) {
      const served = workerDeployments(docs).map((d) => envValue(d.spec.template.spec.containers[0], "WORKER_QUEUES"));
      expect([...served].sort()).toEqual([...QUEUE_NAMES].sort());
      const maintenance = byName(docs, "Deployment", "-worker-maintenance");
      expect(maintenance.spec.replicas).toBe(1);
      expect(maintenance.spec.strategy.type).toBe("Recreate");
      expect(ofKind(docs, "ScaledObject").some((s) => s.spec.scaleTargetRef.name === maintenance.metadata.name)).toBe(false);
    }
  });

  it("a ScaledObject per charged queue on BullMQ's wait list of that queue, with min and max from values", () => {
    const queues = createQueues(client);
    try {
      const kedaNames = kedaRedisMetadataNames();
      expect(kedaNames).toContain("listName");
      for (const [source, docs] of [
        ["default", renders.default],
        ["full", renders.full],
      ] as const) {
        const chosen = source === "full" ? (parse(readFileSync(VALUES_FILES.full[0]!, "utf8")) as Record<string, any>) : values;
        const scaled = ofKind(docs, "ScaledObject");
        expect(scaled.map((s) => s.metadata.labels!["storefront/queue"]).sort()).toEqual([...CHARGED_QUEUES].sort());
        for (const object of scaled) {
          const queue = object.metadata.labels!["storefront/queue"] as (typeof CHARGED_QUEUES)[number];
          const target = byName(docs, "Deployment", `-worker-${queue}`);
          expect(object.spec.scaleTargetRef.name).toBe(target.metadata.name);
          expect(envValue(target.spec.template.spec.containers[0], "WORKER_QUEUES")).toBe(queue);
          // KEDA owns the replica count of a scaled Deployment.
          expect(target.spec.replicas).toBeUndefined();
          const settings = chosen.workers.queues[queue];
          expect(object.spec.minReplicaCount).toBe(settings.minReplicas);
          expect(object.spec.maxReplicaCount).toBe(settings.maxReplicas);
          const [trigger] = object.spec.triggers;
          expect(trigger.type).toBe("redis");
          // The key BullMQ itself uses for this queue's waiting jobs, from the queues the code makes.
          expect(trigger.metadata.listName).toBe(queues[queue].keys.wait);
          expect(trigger.metadata.listLength).toBe(String(settings.listLength));
          const redisValues = chosen.redis ?? values.redis;
          expect(trigger.metadata.address).toBe(`${redisValues.host}:${redisValues.port ?? 6379}`);
          for (const key of Object.keys(trigger.metadata)) expect(kedaNames, `KEDA reads no "${key}"`).toContain(key);
        }
      }
      const auth = ofKind(renders.full, "TriggerAuthentication")[0]!;
      const secret = ofKind(renders.full, "Secret")[0]!;
      expect(auth.spec.secretTargetRef).toEqual([{ parameter: "password", name: secret.metadata.name, key: "REDIS_PASSWORD" }]);
      expect(
        ofKind(renders.full, "ScaledObject").every((s) => s.spec.triggers[0].authenticationRef.name === auth.metadata.name),
      ).toBe(true);
    } finally {
      void closeQueues(queues);
    }
  });

  it("KEDA's own Redis query on the chart's listName counts the queue's waiting jobs, not its delayed ones", async () => {
    const queues = createQueues(client);
    const script = kedaListLengthScript();
    try {
      for (const scaled of ofKind(renders.default, "ScaledObject")) {
        const queue = scaled.metadata.labels!["storefront/queue"] as (typeof CHARGED_QUEUES)[number];
        const listName = scaled.spec.triggers[0].metadata.listName as string;
        expect(await client.eval(script, 1, listName)).toBe(0);
        for (let i = 0; i < 3; i++) await queues[queue].add("helm-check", { i });
        await queues[queue].add("helm-check-later", {}, { delay: 60_000 });
        expect(await client.eval(script, 1, listName), queue).toBe(3);
        expect(await queues[queue].getWaitingCount()).toBe(3);
        await queues[queue].obliterate({ force: true });
      }
    } finally {
      await closeQueues(queues);
    }
  });
});

describe("security", () => {
  it("every pod runs non-root, read-only, without privilege escalation or capabilities, with requests and limits", () => {
    for (const [source, docs] of Object.entries(renders)) {
      for (const workload of workloads(docs)) {
        const pod = podSpec(workload);
        const where = `${source} ${workload.kind}/${workload.metadata.name}`;
        expect(pod.securityContext.runAsNonRoot, where).toBe(true);
        expect(pod.securityContext.runAsUser, where).toBeGreaterThan(0);
        expect(pod.securityContext.seccompProfile.type, where).toBe("RuntimeDefault");
        expect(pod.automountServiceAccountToken, where).toBe(false);
        for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
          const security = container.securityContext;
          expect(security.readOnlyRootFilesystem, where).toBe(true);
          expect(security.allowPrivilegeEscalation, where).toBe(false);
          expect(security.privileged, where).toBe(false);
          expect(security.capabilities.drop, where).toEqual(["ALL"]);
          expect(security.capabilities.add, where).toBeUndefined();
          for (const kind of ["requests", "limits"]) {
            expect(container.resources[kind]?.cpu, `${where} ${container.name} ${kind}.cpu`).toBeDefined();
            expect(container.resources[kind]?.memory, `${where} ${container.name} ${kind}.memory`).toBeDefined();
          }
        }
      }
    }
  });

  it("NetworkPolicies: only the ingress controller (and Prometheus) reach the API; nothing reaches workers or jobs", () => {
    for (const [source, docs] of [
      ["default", renders.default],
      ["full", renders.full],
    ] as const) {
      const policies = ofKind(docs, "NetworkPolicy");
      const covering = (labels: Record<string, string>) =>
        policies.filter((p) => Object.entries(p.spec.podSelector.matchLabels).every(([k, v]) => labels[k] === v));
      for (const workload of workloads(docs)) {
        const matched = covering(podLabels(workload));
        expect(matched.length, `${source}: ${workload.metadata.name} has one NetworkPolicy`).toBe(1);
        const [policy] = matched;
        expect(policy!.spec.policyTypes).toEqual(["Ingress", "Egress"]);
        const egressPorts = policy!.spec.egress.flatMap((rule: any) => rule.ports.map((p: any) => p.port));
        expect(egressPorts).toEqual(expect.arrayContaining([53, 27017]));
        const isApi = podLabels(workload)["app.kubernetes.io/component"] === "api";
        if (isApi) {
          const from = policy!.spec.ingress.flatMap((rule: any) => rule.from);
          expect(from.length).toBe(source === "full" ? 2 : 1);
          expect(from[0].podSelector.matchLabels["app.kubernetes.io/name"]).toBe(source === "full" ? "traefik" : "ingress-nginx");
          expect(policy!.spec.ingress[0].ports).toEqual([{ protocol: "TCP", port: "http" }]);
        } else {
          expect(policy!.spec.ingress).toEqual([]);
        }
        // Providers on public addresses only: the cluster's own ranges and the metadata address are out.
        const publicRule = policy!.spec.egress.find((rule: any) => rule.to?.[0]?.ipBlock);
        if (publicRule) expect(publicRule.to[0].ipBlock.except).toEqual(expect.arrayContaining(["10.0.0.0/8", "169.254.0.0/16"]));
      }
    }
  });

  it("secrets stay in Secrets: no secret value in a ConfigMap or a pod spec", () => {
    const full = parse(readFileSync(VALUES_FILES.full[0]!, "utf8")) as Record<string, any>;
    const secretValues = Object.values(full.secrets.values as Record<string, string>).filter((v) => v.length >= 8);
    const outsideSecrets = JSON.stringify(renders.full.filter((d) => d.kind !== "Secret"));
    for (const value of secretValues) expect(outsideSecrets).not.toContain(value);
    const minimalEnv = workloads(renders.minimal).flatMap((w) => podSpec(w).containers.flatMap((c: any) => c.env ?? []));
    for (const name of ["SESSION_SECRET", "MONGODB_URI", "REDIS_PASSWORD"])
      expect(minimalEnv.find((e: any) => e.name === name).valueFrom.secretKeyRef.name).toBe("storefront-env");
  });
});

/** Every variable the API and workers read: the config schema plus direct process.env reads. */
function variablesTheCodeReads(): Set<string> {
  const names = new Set(configVariables());
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir)).flatMap((entry) => {
      const file = path.join(dir, entry);
      if (statSync(path.join(root, file)).isDirectory()) return entry === "node_modules" || entry === "dist" ? [] : walk(file);
      return /\.tsx?$/u.test(entry) && !entry.includes(".test.") ? [file] : [];
    });
  for (const file of ["api/src", "workers/src", "shared/src"].flatMap(walk)) {
    for (const [, name] of read(file).matchAll(/\b(?:process\.env|env)\.([A-Z][A-Z0-9_]+)\b/gu)) names.add(name!);
  }
  return names;
}

/** The environment Kubernetes would give the container: envFrom ConfigMaps, then env in order with $(VAR) expansion. */
function containerEnvironment(docs: Manifest[], container: any, { secretsElsewhere = false } = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const secretOf = (name: string) => ofKind(docs, "Secret").find((s) => s.metadata.name === name);
  for (const from of container.envFrom ?? []) {
    const map = ofKind(docs, "ConfigMap").find((c) => c.metadata.name === from.configMapRef.name);
    if (!map) throw new Error(`ConfigMap ${from.configMapRef.name} not rendered`);
    Object.assign(env, map.data);
  }
  for (const entry of container.env ?? []) {
    if (entry.value !== undefined) {
      env[entry.name] = String(entry.value).replace(/\$\(([A-Z_][A-Z0-9_]*)\)/gu, (whole, name: string) => env[name] ?? whole);
    } else if (entry.valueFrom?.secretKeyRef) {
      const ref = entry.valueFrom.secretKeyRef;
      const value = secretOf(ref.name)?.stringData?.[ref.key];
      if (value !== undefined) env[entry.name] = value;
      else if (!ref.optional && !secretsElsewhere) throw new Error(`secret ${ref.name}/${ref.key} missing for ${entry.name}`);
    } else if (entry.valueFrom?.configMapKeyRef) {
      const ref = entry.valueFrom.configMapKeyRef;
      env[entry.name] = ofKind(docs, "ConfigMap").find((c) => c.metadata.name === ref.name)!.data[ref.key];
    }
  }
  return env;
}

/** `const NAME = 5_000;` in a source file, as a number. */
function constantIn(file: string, name: string): number {
  const match = new RegExp(`const ${name} = ([\\d_]+);`, "u").exec(read(file));
  if (!match) throw new Error(`${name} not found in ${file}`);
  return Number(match[1]!.replace(/_/gu, ""));
}

describe("the chart runs what the code is", () => {
  const api = () => byName(renders.default, "Deployment", "-api");

  it("the commands are the programs the build makes, as the image and compose run them", () => {
    const apiCommand = api().spec.template.spec.containers[0].command;
    expect(apiCommand).toEqual(["node", "--enable-source-maps", SERVER_PROGRAMS.api.out]);
    const app = dockerfileStages(read("docker/Dockerfile")).find((s) => s.name === "app")!;
    expect(app.lines.filter((l) => l.startsWith("CMD")).at(-1)).toBe(
      `CMD ${JSON.stringify(apiCommand).replace(/","/gu, '", "')}`,
    );
    const compose = loadCompose().services as Record<string, any>;
    for (const worker of workerDeployments(renders.default)) {
      const command = worker.spec.template.spec.containers[0].command;
      expect(command).toEqual(["node", "--enable-source-maps", SERVER_PROGRAMS.workers.out]);
      expect(command).toEqual(compose["worker-chat"].command);
    }
    const migrate = byName(renders.default, "Job", "-migrate");
    expect(migrate.metadata.annotations!["helm.sh/hook"]).toBe("pre-upgrade");
    const script = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.migrate!;
    expect(script).toMatch(/^tsx /u);
    expect(migrate.spec.template.spec.containers[0].command).toEqual(["node", "--import", "tsx", script.slice("tsx ".length)]);
  });

  it("the probes and the port are the API's: readiness /api/ready, liveness /api/health on the listening port", () => {
    const container = api().spec.template.spec.containers[0];
    expect(container.readinessProbe.httpGet).toEqual({ path: "/api/ready", port: "http" });
    expect(container.livenessProbe.httpGet).toEqual({ path: "/api/health", port: "http" });
    expect(container.startupProbe.httpGet).toEqual({ path: "/api/health", port: "http" });
    const port = container.ports.find((p: any) => p.name === "http").containerPort;
    expect(containerEnvironment(renders.default, container).PORT).toBe(String(port));
    const health = read("api/src/routes/health/health.ts");
    expect(health).toContain('paths: ["/health"]');
    expect(health).toContain('paths: ["/ready"]');
  });

  it("every variable the chart sets is one the code reads, and values.yaml documents every one the code reads", () => {
    const read = variablesTheCodeReads();
    expect(read).toContain("OFFLINE_BILLING_DECLINE_ABOVE");
    for (const [source, docs] of Object.entries(renders)) {
      for (const map of ofKind(docs, "ConfigMap"))
        for (const name of Object.keys(map.data)) expect(read, `${source}: ${name}`).toContain(name);
      for (const workload of workloads(docs)) {
        for (const container of podSpec(workload).containers) {
          if (!String(container.image).includes("storefront-app")) continue; // the backup's mongo and redis images
          for (const entry of container.env ?? []) {
            const chartOwn = entry.name === "REDIS_PASSWORD"; // only expanded into REDIS_URL
            if (!chartOwn) expect(read, `${source} ${workload.metadata.name}: ${entry.name}`).toContain(entry.name);
          }
        }
      }
    }
    const valuesText = readFileSync(path.join(CHART_DIR, "values.yaml"), "utf8");
    const undocumented = [...read].filter((name) => !new RegExp(`\\b${name}\\b`, "u").test(valuesText));
    expect(undocumented).toEqual([]);
    // Each non-secret config variable has its own key under `config` (or is set by the chart).
    const chartSet = ["NODE_ENV", "HOST", "PORT", "DATA_DIR", "WORKER_QUEUES", "REDIS_URL", "MONGODB_URI"];
    const secretKeys = Object.keys(values.secrets.keys);
    for (const name of configVariables()) {
      if (chartSet.includes(name) || secretKeys.includes(name)) continue;
      expect(Object.keys(values.config), `config.${name}`).toContain(name);
    }
  });

  it("grace periods cover the API's drain and the workers' shutdown grace", () => {
    const apiDrainMs = constantIn("api/src/main.ts", "SHUTDOWN_DEADLINE_MS");
    expect(read("workers/src/main.ts")).toContain("stopOnSignals(shutdown, config.WORKER_SHUTDOWN_GRACE_MS + 5_000, log)");
    for (const [source, docs] of Object.entries(renders)) {
      const pod = byName(docs, "Deployment", "-api").spec.template.spec;
      const preStop = Number(pod.containers[0].lifecycle.preStop.exec.command[1]);
      expect(pod.containers[0].lifecycle.preStop.exec.command[0]).toBe("sleep");
      expect(pod.terminationGracePeriodSeconds * 1000, source).toBeGreaterThanOrEqual(preStop * 1000 + apiDrainMs);
      for (const worker of workerDeployments(docs)) {
        const env = containerEnvironment(docs, worker.spec.template.spec.containers[0], { secretsElsewhere: true });
        const graceMs = Number(env.WORKER_SHUTDOWN_GRACE_MS ?? 25_000);
        expect(
          worker.spec.template.spec.terminationGracePeriodSeconds * 1000,
          `${source} ${worker.metadata.name}`,
        ).toBeGreaterThan(graceMs + 5_000);
      }
    }
    expect(byName(renders.full, "Deployment", "-worker-chat").spec.template.spec.terminationGracePeriodSeconds).toBe(65);
  });

  describe("the pods' programs, started from the rendered spec alone", () => {
    let redis: RunningService;
    let dataDir = "";
    const children: { name: string; child: ChildProcess; output: () => string }[] = [];
    let docs: Manifest[] = [];
    let apiPort = 0;
    let spawnedAt = 0;
    const REDIS_PASSWORD = "chartRedisPassword0123";

    const spawnContainer = (name: string, container: any) => {
      const env = containerEnvironment(docs, container);
      // The media volume the pod mounts at DATA_DIR is a directory of this run here.
      expect(container.volumeMounts.find((m: any) => m.name === "media").mountPath).toBe(env.DATA_DIR);
      const [program, ...args] = container.command as string[];
      expect(program).toBe("node");
      const child = spawn(process.execPath, args, {
        cwd: root,
        // Only what the pod would have (and PATH): a variable the chart forgot is missing here too.
        env: { PATH: process.env.PATH ?? "", ...env, DATA_DIR: dataDir },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      children.push({ name, child, output: () => output });
      return child;
    };

    beforeAll(async () => {
      redis = await startRedis();
      // A Redis that wants a password, as production's does: REDIS_URL is then built in the pod from
      // $(REDIS_PASSWORD), which containerEnvironment expands as Kubernetes would.
      const admin = new Redis(redis.url);
      await admin.config("SET", "requirepass", REDIS_PASSWORD);
      await admin.quit();
      dataDir = mkdtempSync(path.join(tmpdir(), "helm-pods-"));
      apiPort = await freePort();
      const mongo = new URL(inject("mongoUri"));
      mongo.pathname = "/helm-chart-check";
      const redisUrl = new URL(redis.url);
      docs = render(helm, VALUES_FILES.default, {
        "api.port": apiPort,
        "redis.host": redisUrl.hostname,
        "redis.port": Number(redisUrl.port),
        "secrets.values.MONGODB_URI": mongo.toString(),
        "secrets.values.REDIS_PASSWORD": REDIS_PASSWORD,
        "config.LOG_LEVEL": "warn",
      });
      const apiContainer = byName(docs, "Deployment", "-api").spec.template.spec.containers[0];
      expect(envValue(apiContainer, "REDIS_URL")).toBe(`redis://:$(REDIS_PASSWORD)@${redisUrl.hostname}:${redisUrl.port}/0`);
      spawnedAt = Date.now();
      for (const worker of workerDeployments(docs)) spawnContainer(worker.metadata.name, worker.spec.template.spec.containers[0]);
      spawnContainer("api", byName(docs, "Deployment", "-api").spec.template.spec.containers[0]);
    }, 120_000);

    afterAll(async () => {
      for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await redis?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const probe = async (probePath: string) =>
      fetch(`http://127.0.0.1:${apiPort}${probePath}`, { signal: AbortSignal.timeout(2000) }).then(
        (res) => res.status,
        () => 0,
      );

    it("answer the probes on the chart's port: liveness, and readiness once every queue has its worker", async () => {
      const container = byName(docs, "Deployment", "-api").spec.template.spec.containers[0];
      const deadline = Date.now() + 150_000;
      let ready = 0;
      let liveAt = 0;
      while (Date.now() < deadline) {
        if (!liveAt && (await probe(container.livenessProbe.httpGet.path)) === 200) liveAt = Date.now();
        const dead = children.find((c) => c.child.exitCode !== null);
        if (dead) throw new Error(`${dead.name} exited (${dead.child.exitCode}):\n${dead.output()}`);
        ready = await probe(container.readinessProbe.httpGet.path);
        if (ready === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(ready, children.map((c) => `${c.name}: ${c.output()}`).join("\n")).toBe(200);
      console.log(
        `[helm] pods' programs: live ${((liveAt - spawnedAt) / 1000).toFixed(1)} s, ready ${((Date.now() - spawnedAt) / 1000).toFixed(1)} s after start`,
      );
      expect(await probe(container.livenessProbe.httpGet.path)).toBe(200);
      const body = (await fetch(`http://127.0.0.1:${apiPort}/api/ready`).then((r) => r.json())) as {
        status: string;
        missing: string[];
      };
      expect(body).toEqual({ status: "ready", missing: [] });
    }, 180_000);

    it("stop on SIGTERM within the grace period the chart gives them", async () => {
      const apiPod = byName(docs, "Deployment", "-api").spec.template.spec;
      const preStop = Number(apiPod.containers[0].lifecycle.preStop.exec.command[1]);
      const exits = children.map(({ name, child }) => {
        const limitMs =
          (name === "api"
            ? apiPod.terminationGracePeriodSeconds - preStop
            : byName(docs, "Deployment", name).spec.template.spec.terminationGracePeriodSeconds) * 1000;
        const signalled = Date.now();
        return new Promise<{ name: string; ms: number; code: number | null; limitMs: number }>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null)
            return resolve({ name, ms: 0, code: child.exitCode, limitMs });
          child.once("exit", (code) => resolve({ name, ms: Date.now() - signalled, code, limitMs }));
          child.kill("SIGTERM");
        });
      });
      for (const exit of await Promise.all(exits)) {
        expect(exit.code, exit.name).toBe(0);
        expect(exit.ms, exit.name).toBeLessThan(exit.limitMs);
      }
    }, 90_000);
  });
});
