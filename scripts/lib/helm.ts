/**
 * The Helm chart's tools, installed once per machine under the cache like infra.ts's servers:
 * helm built from the Go module proxy (`go install helm.sh/helm/v3/cmd/helm@HELM_VERSION`), and a
 * Python venv with kubernetes-validate from PyPI (the Kubernetes OpenAPI schemas as JSON Schema) that
 * runs scripts/lib/validate-manifests.py. tests/integration/helm.test.ts uses them; so can a person:
 *
 *   npx tsx scripts/lib/helm.ts    # lint, render and validate the chart with each values file
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import { cacheDir, which } from "./infra";

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

/** Builds a tool into `<final>.<pid>` and renames it into place, so concurrent runs never see half of one. */
function installOnce(final: string, marker: string, build: (dir: string) => void): void {
  if (existsSync(path.join(final, marker))) return;
  const building = `${final}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    build(building);
    renameSync(building, final);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(path.join(final, marker))) throw error; // another run got there first otherwise
  }
}

export interface Installed {
  path: string;
  /** How long this call spent installing (0 when it was there already). */
  installMs: number;
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

/** A Python venv with kubernetes-validate, made once per machine. */
export function ensureManifestValidator(): Installed {
  const dir = path.join(cacheDir, `kubernetes-validate-${KUBERNETES_VALIDATE_VERSION}`);
  const python = path.join(dir, "bin", "python");
  const ready = () =>
    existsSync(python) && spawnSync(python, ["-c", "import kubernetes_validate, jsonschema, yaml"]).status === 0;
  if (ready()) return { path: python, installMs: 0 };
  const system = which("python3");
  if (!system) throw new Error("python3 is missing: install Debian's python3 and python3-venv");
  const started = Date.now();
  log(`installing kubernetes-validate ${KUBERNETES_VALIDATE_VERSION} from PyPI into a venv (once per machine)`);
  installOnce(dir, "bin/python", (building) => {
    const venv = spawnSync(system, ["-m", "venv", building], { stdio: "inherit" });
    if (venv.status !== 0) throw new Error("python3 -m venv failed (Debian: apt-get install python3-venv)");
    const pip = spawnSync(
      path.join(building, "bin", "python"),
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `kubernetes-validate==${KUBERNETES_VALIDATE_VERSION}`],
      { stdio: "inherit" },
    );
    if (pip.status !== 0) throw new Error("pip could not install kubernetes-validate");
  });
  if (!ready()) throw new Error(`kubernetes-validate did not install into ${dir}`);
  return { path: python, installMs: Date.now() - started };
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
