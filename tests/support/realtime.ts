/** Helpers for suites that watch pushes or run a stack of their own. */
import { io, type Socket } from "socket.io-client";
import { expect } from "vitest";
import { credit } from "@storefront/shared/server";
import { Client, uniquePhone } from "./client";

export interface Push {
  event: string;
  // Payloads are checked field by field in the tests; the shapes are in docs/realtime.md.
  payload: any;
}

/**
 * A browser-like socket on `baseUrl`: same origin, the client's session cookie in the handshake; on
 * the websocket transport unless told (a browser falls back to polling where WebSockets are blocked).
 */
export async function connectSocket(
  baseUrl: string,
  client: Client,
  transport: "websocket" | "polling" = "websocket",
): Promise<{ socket: Socket; received: Push[] }> {
  const socket = io(baseUrl, {
    path: "/socket.io",
    transports: [transport],
    extraHeaders: { cookie: client.cookieHeader() },
    reconnection: false,
  });
  const received: Push[] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return { socket, received };
}

/**
 * Polls `probe` every `everyMs` until it gives something other than undefined or false; `what` names
 * the awaited condition in the timeout error. Slow probes (ledger reconciliation) poll less often.
 */
export async function until<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  what = "condition",
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A signed-up, logged-in user holding `coins`, credited straight through the ledger: for stacks
 * a suite starts itself (they have no administrator). Needs a mongoose connection to that stack.
 */
export async function userWithCoins(baseUrl: string, coins: number): Promise<{ client: Client; id: string }> {
  const client = new Client(baseUrl);
  const phone = uniquePhone();
  expect((await client.post("/signup.php", { phone, password: "secret-pass" })).status).toBe(201);
  const login = await client.post("/login-session-fix.php", { phone, password: "secret-pass" });
  expect(login.status).toBe(200);
  const id: string = login.body.user.id;
  if (coins > 0) await credit(id, coins, `test-credit:${id}`, "credit", "test");
  return { client, id };
}
