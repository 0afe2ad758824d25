/**
 * Tools installed once per machine under the cache like infra.ts's servers: built into
 * `<final>.<pid>` and renamed into place, so an interrupted install is never reused and concurrent
 * runs never see half of one. helm.ts (helm, kubernetes-validate) and the LiteLLM suite use them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { cacheDir, which } from "./infra";

/** Builds a tool into `<final>.<pid>` and renames it into place, so concurrent runs never see half of one. */
export function installOnce(final: string, marker: string, build: (dir: string) => void): void {
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

export interface VenvOptions {
  /** The cache directory's name, `<name>-<version>`. */
  name: string;
  /** What pip installs, e.g. `litellm[proxy]==1.108.7`. */
  requirement: string;
  /** The modules a working install imports (checked before it is reused). */
  imports: string[];
  log: (message: string) => void;
}

/**
 * A Python venv with `requirement` from PyPI, made once per machine; its directory. Run its tools
 * with its `bin/python -m <module>`: the scripts pip wrote in `bin/` name the build directory.
 */
export function ensureVenv(options: VenvOptions): Installed {
  const dir = path.join(cacheDir, options.name);
  const python = path.join(dir, "bin", "python");
  const ready = () => existsSync(python) && spawnSync(python, ["-c", `import ${options.imports.join(", ")}`]).status === 0;
  if (ready()) return { path: dir, installMs: 0 };
  const system = which("python3");
  if (!system) throw new Error("python3 is missing: install Debian's python3 and python3-venv");
  const started = Date.now();
  options.log(`installing ${options.requirement} from PyPI into a venv (once per machine)`);
  installOnce(dir, "bin/python", (building) => {
    const venv = spawnSync(system, ["-m", "venv", building], { stdio: "inherit" });
    if (venv.status !== 0) throw new Error("python3 -m venv failed (Debian: apt-get install python3-venv)");
    const pip = spawnSync(
      path.join(building, "bin", "python"),
      ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", options.requirement],
      { stdio: "inherit" },
    );
    if (pip.status !== 0) throw new Error(`pip could not install ${options.requirement}`);
  });
  if (!ready()) throw new Error(`${options.requirement} did not install into ${dir}`);
  return { path: dir, installMs: Date.now() - started };
}
