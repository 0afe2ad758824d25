import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureChromium, ensureHeadlessChromium } from "../../scripts/lib/infra";

/** Written when the build ends: `{ "code": <exit code> }`. The browser suites wait for it (tests/browser/browser.ts). */
export const WEB_BUILD_MARKER = path.resolve("test-artifacts/web-build.json");

let child: ChildProcess | undefined;

/**
 * The browser suites test a production build of the web app, built once per run. The build runs
 * beside the stack's start and the other suites (they never load the app), and the browser suites
 * wait for its marker. web/dist exists from the start so the API mounts the app.
 * NODE_ENV=production: vitest sets "test", which would bundle React's development runtime.
 * The browser is installed here, once, if it is missing: the suites launch it side by side (the
 * full Chromium too, for the one test that needs notifications shown: tests/browser/pwa.test.ts).
 */
export function setup(): () => void {
  // Two browser projects name this setup; the run builds once (both setups run in vitest's own process).
  if (process.env.STOREFRONT_WEB_BUILD_STARTED) return () => undefined;
  process.env.STOREFRONT_WEB_BUILD_STARTED = "1";
  ensureHeadlessChromium();
  ensureChromium();
  rmSync(WEB_BUILD_MARKER, { force: true });
  mkdirSync(path.resolve("web/dist"), { recursive: true });
  mkdirSync(path.dirname(WEB_BUILD_MARKER), { recursive: true });
  child = spawn("npm", ["run", "build", "-w", "web"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  child.on("exit", (code, signal) => writeFileSync(WEB_BUILD_MARKER, JSON.stringify({ code: code ?? (signal ? 1 : 0) })));
  child.on("error", () => writeFileSync(WEB_BUILD_MARKER, JSON.stringify({ code: 1 })));
  return () => {
    if (child && child.exitCode === null) child.kill();
  };
}
