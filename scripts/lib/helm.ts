/**
 * The Helm chart's tools, installed once per machine under the cache like infra.ts's servers:
 * helm built from the Go module proxy (`go install helm.sh/helm/v3/cmd/helm@HELM_VERSION`), and a
 * Python venv with kubernetes-validate from PyPI (the Kubernetes OpenAPI schemas as JSON Schema) that
 * runs scripts/lib/validate-manifests.py. tests/integration/helm.test.ts uses them; so can a person:
 *
 *   npx tsx scripts/lib/helm.ts    # lint, render and validate the chart with each values file
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { cacheDir, which } from "./infra";
import { ensureVenv, installOnce, type Installed } from "./venv";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const HELM_VERSION = "v3.22.0";
export const KUBERNETES_VALIDATE_VERSION = "1.37.0";
/** The oldest Kubernetes the chart supports (Chart.yaml kubeVersion) and the newest schemas shipped. */
export const KUBE_VERSIONS = ["1.31.0", "1.37.0"];
export const CHART_DIR = path.join(root, "deploy/helm/storefront");
export const KEDA_SCHEMAS = path.join(root, "deploy/helm/schemas/keda-v2.20.2");
export const CRD_FILES = [
  path.join(KEDA_SCHEMAS, "keda.sh_scaledobjects.yaml"),
  path.join(KEDA_SCHEMAS, "keda.sh_triggerauthentications.yaml"),
  path.join(root, "deploy/helm/schemas/prometheus-operator-v0.93.0/monitoring.coreos.com_servicemonitors.yaml"),
];
/** The values files rendered in the tests: the defaults, then the chart's ci/ files. */
export const VALUES_FILES = {
  default: [] as string[],
  minimal: [path.join(CHART_DIR, "ci/minimal-values.yaml")],
  full: [path.join(CHART_DIR, "ci/full-values.yaml")],
};

function log(message: string): void {
  process.stderr.write(`[helm] ${message}\n`);
}

/** helm, built once per machine from the Go module proxy. */
export function ensureHelm(): Installed {
  const dir = path.join(cacheDir, `helm-${HELM_VERSION}`);
  const binary = path.join(dir, "helm");
  if (existsSync(binary)) return { path: binary, installMs: 0 };
  const go = which("go") ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : null);
  if (!go) throw new Error(`helm ${HELM_VERSION} is missing and so is Go to build it: install Go (1.24 or newer)`);
  const started = Date.now();
  log(`building helm ${HELM_VERSION} with go install (once per machine; a few minutes)`);
  installOnce(dir, "helm", (building) => {
    const built = spawnSync(
      go,
      [
        "install",
        "-trimpath",
        `-ldflags=-s -w -X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}`,
        `helm.sh/helm/v3/cmd/helm@${HELM_VERSION}`,
      ],
      { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, GOBIN: building, GOFLAGS: "-buildvcs=false" } },
    );
    if (built.status !== 0 || !existsSync(path.join(building, "helm"))) throw new Error("go install of helm failed");
  });
  return { path: binary, installMs: Date.now() - started };
}

/** A Python venv with kubernetes-validate, made once per machine: its python. */
export function ensureManifestValidator(): Installed {
  const venv = ensureVenv({
    name: `kubernetes-validate-${KUBERNETES_VALIDATE_VERSION}`,
    requirement: `kubernetes-validate==${KUBERNETES_VALIDATE_VERSION}`,
    imports: ["kubernetes_validate", "jsonschema", "yaml"],
    log,
  });
  return { path: path.join(venv.path, "bin", "python"), installMs: venv.installMs };
}

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runHelm(helm: string, args: string[]): HelmResult {
  const result = spawnSync(helm, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

/** `helm template` of the chart with these values files and values set (numbers with --set, strings with --set-string). */
export function renderChart(helm: string, valuesFiles: string[], set: Record<string, string | number> = {}): Manifest[] {
  const args = ["template", "storefront", CHART_DIR, "--namespace", "shop", "--kube-version", KUBE_VERSIONS[0]!];
  for (const file of valuesFiles) args.push("-f", file);
  for (const [key, value] of Object.entries(set))
    args.push(typeof value === "number" ? "--set" : "--set-string", `${key}=${value}`);
  const result = runHelm(helm, args);
  if (result.status !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`helm template gave invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((doc): doc is Manifest => doc !== null);
}

/** `helm lint --strict` with these values files: the problems it printed, none when it passed. */
export function lintChart(helm: string, valuesFiles: string[]): string[] {
  const args = ["lint", "--strict", CHART_DIR, "--kube-version", KUBE_VERSIONS[0]!];
  for (const file of valuesFiles) args.push("-f", file);
  const result = runHelm(helm, args);
  if (result.status === 0) return [];
  return `${result.stdout}\n${result.stderr}`.split("\n").filter((line) => /\[(ERROR|WARNING)\]|^Error/u.test(line));
}

/**
 * Every object against the Kubernetes schemas of KUBE_VERSIONS (strict: unknown fields refused),
 * and KEDA's and the Prometheus Operator's objects against their CRDs: the problems, none when valid.
 */
export function validateManifests(
  python: string,
  manifests: { source: string; doc: Manifest }[],
): { problems: string[]; validated: Record<string, Record<string, number>> } {
  const input = JSON.stringify({ kubeVersions: KUBE_VERSIONS, crds: CRD_FILES, docs: manifests });
  const result = spawnSync(python, [path.join(here, "validate-manifests.py")], {
    input,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`validate-manifests.py failed:\n${result.stderr}`);
  return JSON.parse(result.stdout) as { problems: string[]; validated: Record<string, Record<string, number>> };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const helm = ensureHelm().path;
  const python = ensureManifestValidator().path;
  let failed = false;
  for (const [name, files] of Object.entries(VALUES_FILES)) {
    const lint = lintChart(helm, files);
    const { problems, validated } = validateManifests(
      python,
      renderChart(helm, files).map((doc) => ({ source: name, doc })),
    );
    for (const problem of [...lint, ...problems]) console.log(`✗ ${name}: ${problem}`);
    failed ||= lint.length + problems.length > 0;
    console.log(
      `${name}: ${Object.entries(validated[name] ?? {})
        .map(([kind, n]) => `${n} ${kind}`)
        .join(", ")}`,
    );
  }
  process.exit(failed ? 1 : 0);
}
