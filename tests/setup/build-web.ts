import { execFileSync } from "node:child_process";

/**
 * The browser suites test a production build of the web app, built once per run before the
 * stack starts. NODE_ENV=production: vitest sets "test", which would bundle React's development
 * runtime.
 */
export function setup(): void {
  execFileSync("npm", ["run", "build", "-w", "web"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
}
