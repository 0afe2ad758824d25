import { io } from "socket.io-client";
import { describe, expect, inject, it } from "vitest";
import { cleanMarkdown } from "@storefront/shared";
import { LedgerEntry, jobIdForHold, ledgerSum } from "@storefront/shared/server";
import { useQueue } from "../support/queues";
import { Client, adminClient, giveCoins, newUser, walletCoins } from "../support/client";
import { connectSocket as connectTo, until } from "../support/realtime";

const connectSocket = (client: Client) => connectTo(inject("baseUrl"), client);

const chatQueue = useQueue("chat");

describe("textai/chat.php", () => {
  it("answers in the HTTP reply and pushes the same reply as deltas and job:completed", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const { socket, received } = await connectSocket(client);
    try {
      const message = "what is 12 * 7?";
      const res = await client.post("/textai/chat.php", {
        message,
        userId: id,
        conversationId: null,
        avatarType: "general",
        conversationHistory: [
          { type: "user", content: "hi" },
          { type: "ai", content: "Hello!" },
        ],
        language: "en",
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(typeof res.body.message).toBe("string");
      expect(res.body.message.length).toBeGreaterThan(0);
      const jobId: string = res.body.jobId;

      const completed = await until(() => received.find((r) => r.event === "job:completed" && r.payload.jobId === jobId));
      expect(completed.payload).toMatchObject({ queue: "chat", result: { reply: res.body.message } });
      const deltas = received.filter((r) => r.event === "chat:delta");
      expect(deltas.length).toBeGreaterThan(0);
      for (const d of deltas) expect(d.payload.jobId).toBe(jobId);
      expect(cleanMarkdown(deltas.map((d) => d.payload.delta).join(""))).toBe(res.body.message);

      const cost = Math.ceil(message.length / 4);
      expect(res.body.tokensUsed).toBe(cost);
      const wallet = await until(() => received.find((r) => r.event === "wallet:updated"));
      expect(wallet.payload.coins).toBe(100 - cost);
      expect(await walletCoins(client)).toBe(100 - cost);
      const held = await LedgerEntry.findOne({ jobId, kind: "hold" }).lean();
      expect(held).toMatchObject({ amount: -cost, holdState: "settled", feature: "text" });
    } finally {
      socket.disconnect();
    }
  });

  it("charges the Doctor by word count, at least one", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 50);
    const res = await client.post("/textai/chat.php", {
      message: "I have had a headache since yesterday",
      avatarType: "doctor",
      language: "en",
    });
    expect(res.status).toBe(200);
    expect(res.body.tokensUsed).toBe(7);
    expect(await walletCoins(client)).toBe(43);
    const one = await client.post("/textai/chat.php", { message: "headache", avatarType: "doctor" });
    expect(one.body.tokensUsed).toBe(1);
    expect(await walletCoins(client)).toBe(42);
    const held = await LedgerEntry.findOne({ jobId: one.body.jobId }).lean();
    expect(held?.feature).toBe("doctor");
  });

  it("keeps none of the Doctor message in the ledger, which outlives the deleted conversation", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 50);
    const res = await client.post("/textai/chat.php", { message: "my chest hurts when breathing", avatarType: "doctor" });
    expect(res.status).toBe(200);
    const entries = await LedgerEntry.find({ userId: id, feature: "doctor" }).lean();
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry.details).toBe("Doctor consultation");
      expect(JSON.stringify(entry)).not.toMatch(/chest|hurts|breathing/u);
    }
  });

  it("answers 402 with no job and an unchanged balance when coins are short", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 2);
    const key = `short-${id}`;
    const message = "a message that costs more than two coins";
    const res = await client.post("/textai/chat.php", { message, avatarType: "general" }, { "Idempotency-Key": key });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      success: false,
      error: "Insufficient coins",
      available: 2,
      needed: Math.ceil(message.length / 4),
    });
    expect(await walletCoins(client)).toBe(2);
    expect(await chatQueue().getJob(jobIdForHold("chat", `job:chat:${id}:${key}`))).toBeUndefined();
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "hold" })).toBe(0);
  });

  it("charges a retried request with the same Idempotency-Key once and makes one job", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    const headers = { "Idempotency-Key": `chat-retry-${id}` };
    const body = { message: "hello there", avatarType: "chef" };
    const first = await client.post("/textai/chat.php", body, headers);
    const again = await client.post("/textai/chat.php", body, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.jobId).toBe(first.body.jobId);
    expect(again.body.message).toBe(first.body.message);
    expect(await walletCoins(client)).toBe(100 - Math.ceil(body.message.length / 4));
    expect(await LedgerEntry.countDocuments({ userId: id, kind: "hold" })).toBe(1);
    expect(await ledgerSum(id)).toBe(await walletCoins(client));
  });

  it("rejects bad input naming the field, and other users' ids", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 10);
    const empty = await client.post("/textai/chat.php", { message: "   ", avatarType: "general" });
    expect(empty.status).toBe(400);
    expect(empty.body.field).toBe("message");
    const persona = await client.post("/textai/chat.php", { message: "hi", avatarType: "pirate" });
    expect(persona.status).toBe(400);
    expect(persona.body.field).toBe("avatarType");
    const long = await client.post("/textai/chat.php", { message: "a".repeat(2001), avatarType: "doctor" });
    expect(long.status).toBe(400);
    expect(long.body.field).toBe("message");
    const language = await client.post("/textai/chat.php", { message: "hi", language: "fr" });
    expect(language.status).toBe(400);
    expect(language.body.field).toBe("language");
    const other = await client.post("/textai/chat.php", { message: "hi", userId: "5f0000000000000000000000" });
    expect(other.status).toBe(403);
    expect((await new Client().post("/textai/chat.php", { message: "hi" })).status).toBe(401);
    expect(await walletCoins(client)).toBe(10);
  });
});

describe("socket.io", () => {
  it("refuses a socket without a session", async () => {
    const socket = io(inject("baseUrl"), { path: "/socket.io", transports: ["websocket"], reconnection: false });
    const error = await new Promise<Error>((resolve) => socket.once("connect_error", resolve));
    socket.disconnect();
    expect(error.message).toBe("unauthorized");
  });

  it("lets an administrator's session connect", async () => {
    const admin = await adminClient();
    const { socket } = await connectSocket(admin);
    expect(socket.connected).toBe(true);
    socket.disconnect();
  });

  it("delivers a user's pushes only to that user's sockets", async () => {
    const a = await newUser();
    const b = await newUser();
    await giveCoins(a.id, 20);
    const sa = await connectSocket(a.client);
    const sb = await connectSocket(b.client);
    try {
      const res = await a.client.post("/textai/chat.php", { message: "hello", avatarType: "general" });
      expect(res.status).toBe(200);
      await until(() => sa.received.find((r) => r.event === "job:completed"));
      expect(sb.received).toEqual([]);
    } finally {
      sa.socket.disconnect();
      sb.socket.disconnect();
    }
  });
});
