/**
 * Our OpenAI-compatible chat provider against a real third-party implementation of the wire
 * format: the LiteLLM proxy from PyPI (installed once per machine into a venv under the cache,
 * started here on a free port) with a mock model, so no paid API is called. The hand-written peer
 * (tests/peers/openai.ts) covers the faults LiteLLM cannot be made to produce on demand.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/infra";
import { ensureVenv } from "../../scripts/lib/venv";
import { openAiChatProvider, type ChatRequest } from "../../workers/src/providers/index";
import { collect, providerRejection } from "../support/providers";

const LITELLM_VERSION = "1.108.7";
const MOCK = "Fever is a raised body temperature.";
const MODEL = "gpt-4o-mini";

const request: ChatRequest = {
  system: "You are a careful medical assistant.",
  history: [
    { role: "user", content: "I feel hot." },
    { role: "assistant", content: "Do you have a thermometer?" },
  ],
  message: "What is a fever?",
  language: "en",
  persona: "general",
  maxTokens: 64,
};

/** Resolves once the proxy answers its liveness probe; rejects if it exits first or takes too long. */
async function waitLive(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`litellm exited with code ${child.exitCode}:\n${output()}`);
    const ok = await fetch(`${url}/health/liveliness`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`litellm was not live within ${timeoutMs} ms:\n${output()}`);
}

describe("OpenAI chat provider against the real LiteLLM proxy", () => {
  const masterKey = `sk-${randomBytes(16).toString("hex")}`;
  const dir = mkdtempSync(path.join(tmpdir(), "litellm-"));
  let child: ChildProcess | undefined;
  let baseUrl = "";
  let output = "";
  let wake = () => undefined as void;

  /** The first line of the proxy's output matching `pattern`, once it has written it. */
  async function logLine(pattern: RegExp): Promise<string> {
    for (;;) {
      const line = output.split("\n").find((l) => pattern.test(l));
      if (line) return line;
      if (child?.exitCode !== null) throw new Error(`litellm exited:\n${output.slice(-4000)}`);
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }

  beforeAll(async () => {
    const venv = ensureVenv({
      name: `litellm-${LITELLM_VERSION}`,
      requirement: `litellm[proxy]==${LITELLM_VERSION}`,
      imports: ["litellm"],
      log: (message) => process.stderr.write(`[litellm] ${message}\n`),
    });
    const config = path.join(dir, "config.yaml");
    writeFileSync(
      config,
      [
        "model_list:",
        `  - model_name: ${MODEL}`,
        `    litellm_params: { model: openai/${MODEL}, api_key: sk-fake, mock_response: ${JSON.stringify(MOCK)} }`,
        "",
      ].join("\n"),
    );
    const port = await freePort();
    // Not bin/litellm: the scripts pip wrote name the directory the venv was built in (see ensureVenv).
    const args = [
      "-m",
      "litellm.proxy.proxy_cli",
      "--config",
      config,
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--detailed_debug",
    ];
    child = spawn(path.join(venv.path, "bin", "python"), args, {
      detached: true, // its own process group: uvicorn's workers go with it in afterAll
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        LITELLM_MASTER_KEY: masterKey,
        // No internet here: the model price map shipped in the package, no telemetry.
        LITELLM_LOCAL_MODEL_COST_MAP: "True",
        LITELLM_TELEMETRY: "False",
        PYTHONUNBUFFERED: "1",
      },
    });
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-1_000_000);
      wake();
    };
    child.once("error", (error) => keep(Buffer.from(String(error))));
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    baseUrl = `http://127.0.0.1:${port}`;
    await waitLive(baseUrl, child, () => output, 60_000);
  }, 600_000);

  afterAll(async () => {
    if (child?.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      const group = -child.pid;
      const signal = (name: NodeJS.Signals) => {
        try {
          process.kill(group, name);
        } catch {
          // The group is gone already.
        }
      };
      signal("SIGTERM");
      const timer = setTimeout(() => signal("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("streams the mock reply in several deltas that join to exactly its text", async () => {
    const provider = openAiChatProvider({ baseUrl: `${baseUrl}/v1`, apiKey: masterKey, model: MODEL, timeoutMs: 15_000 });
    const chunks = await collect(provider.stream(request));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join("")).toBe(MOCK);
  });

  it("the proxy reads our request as sent: system prompt, history, message and max_tokens", async () => {
    const provider = openAiChatProvider({ baseUrl: `${baseUrl}/v1`, apiKey: masterKey, model: MODEL, timeoutMs: 15_000 });
    expect((await collect(provider.stream(request))).join("")).toBe(MOCK);
    // What LiteLLM parsed from our body, from its --detailed_debug log (a Python dict's repr).
    const received = await logLine(/Params passed to completion\(\).*What is a fever\?/u);
    expect(received).toContain("'max_tokens': 64,");
    expect(received).toContain(
      "'messages': [{'role': 'system', 'content': 'You are a careful medical assistant.'}, " +
        "{'role': 'user', 'content': 'I feel hot.'}, {'role': 'assistant', 'content': 'Do you have a thermometer?'}, " +
        "{'role': 'user', 'content': 'What is a fever?'}]",
    );
    const { maxTokens: _cap, ...uncapped } = request;
    const plain = { ...uncapped, history: [], message: "And a chill?" };
    expect((await collect(provider.stream(plain))).join("")).toBe(MOCK);
    const second = await logLine(/Params passed to completion\(\).*And a chill\?/u);
    expect(second).toContain("'max_tokens': None,");
    expect(second).toContain(
      "'messages': [{'role': 'system', 'content': 'You are a careful medical assistant.'}, {'role': 'user', 'content': 'And a chill?'}]",
    );
  });

  it("a wrong key is a permanent error (LiteLLM without a database answers 400); no key is its 500, retried", async () => {
    const provider = openAiChatProvider({ baseUrl: `${baseUrl}/v1`, apiKey: "sk-wrong", model: MODEL, timeoutMs: 15_000 });
    const wrong = await providerRejection(collect(provider.stream(request)));
    expect(wrong).toMatchObject({ retryable: false, status: 400, message: "openai answered 400: No connected db." });
    // LiteLLM 1.108.7 answers a request without a key with a bare 500, which our provider retries.
    const keyless = openAiChatProvider({ baseUrl: `${baseUrl}/v1`, model: MODEL, timeoutMs: 15_000 });
    const missing = await providerRejection(collect(keyless.stream(request)));
    expect(missing).toMatchObject({ retryable: true, status: 500 });
  });
});
