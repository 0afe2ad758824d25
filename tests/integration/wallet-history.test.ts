/** My usage (wallet/history.php) on the running stack: the user's own ledger, filters, pages and CSV. */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { credit } from "@storefront/shared/server";
import { csvCell } from "../../api/src/services/history";
import { Client, giveCoins, newUser } from "../support/client";
import { useDatabase } from "./admin-helpers";

useDatabase();

describe("wallet/history.php", () => {
  it("lists the user's own movements newest first, with balance after and the job they paid for", async () => {
    const { client, id } = await newUser();
    await giveCoins(id, 100);
    expect((await client.post("/wallet/use.php", { featureType: "image", tokens: 5 })).status).toBe(200);
    const chat = await client.post("/textai/chat.php", {
      message: "hello",
      userId: id,
      conversationId: null,
      avatarType: "general",
      conversationHistory: [],
      language: "en",
    });
    expect(chat.status).toBe(200);
    const other = await newUser();
    await giveCoins(other.id, 7);

    const res = await client.get("/wallet/history.php");
    expect(res.status).toBe(200);
    const entries = res.body.entries as {
      kind: string;
      feature: string | null;
      amount: number;
      balance_after: number;
      reference: unknown;
    }[];
    expect(entries.map((e) => e.kind)).toEqual(["charge", "charge", "adjustment"]);
    expect(entries[0]).toMatchObject({ feature: "text", reference: { queue: "chat", job_id: chat.body.jobId } });
    expect(entries[1]).toMatchObject({ kind: "charge", feature: "image", amount: -5, balance_after: 95 });
    expect(entries[0]!.balance_after).toBe(95 + entries[0]!.amount);
    expect(res.body).toMatchObject({ total: 3, page: 1, total_pages: 1 });

    const images = await client.get("/wallet/history.php?feature=image");
    expect(images.body.entries).toHaveLength(1);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await client.get(`/wallet/history.php?from=${tomorrow}`)).body.entries).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await client.get(`/wallet/history.php?to=${today}`)).body.total).toBe(3);
    const paged = await client.get("/wallet/history.php?limit=2&page=2");
    expect(paged.body).toMatchObject({ total: 3, page: 2, total_pages: 2 });
    expect(paged.body.entries).toHaveLength(1);
  });

  it("exports CSV that no spreadsheet runs as a formula", async () => {
    const { client, id } = await newUser();
    await credit(id, 40, `test:${randomUUID()}`, "credit", '=HYPERLINK("x")');
    const res = await client.request("GET", "/wallet/history.php?format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/u);
    expect(res.headers.get("content-disposition")).toMatch(/attachment/u);
    const lines = String(res.body)
      .replace(/^\uFEFF/u, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("date,kind,feature,coins,balance_after,queue,job_id");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/"credit","","40","40","",""$/u);
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("-2")).toBe(`"'-2"`);
    expect(csvCell(-2)).toBe(`"-2"`);
    expect(csvCell('say "hi"')).toBe(`"say ""hi"""`);
  });

  it("refuses garbage with 400 naming the field, and strangers with 401", async () => {
    const { client } = await newUser();
    for (const [query, field] of [
      ["feature=teleport", /feature/u],
      ["from=yesterday", /from/u],
      ["to=2026-13-45", /to/u],
      ["page=0", /page/u],
      ["limit=1000", /limit/u],
      ["format=xml", /format/u],
    ] as const) {
      const res = await client.get(`/wallet/history.php?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error).toMatch(field);
    }
    expect((await new Client().get("/wallet/history.php")).status).toBe(401);
  });
});
