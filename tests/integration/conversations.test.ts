import { describe, expect, it } from "vitest";
import { Client, newUser } from "../support/client";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s)).toISOString();

describe("conversations/*.php", () => {
  it('creates with "new", lists, loads, replaces and deletes the owner\'s conversation', async () => {
    const { client, id } = await newUser();
    const messages = [
      { type: "user", content: "How do I make bread at home?", timestamp: at(1) },
      { type: "ai", content: "Mix flour, water, yeast and salt.", timestamp: at(2) },
    ];
    const saved = await client.post("/conversations/save.php", { userId: id, conversationId: "new", title: "", messages });
    expect(saved.status).toBe(200);
    expect(saved.body.success).toBe(true);
    const conversationId: string = saved.body.conversationId;
    expect(conversationId).toMatch(/^[a-f0-9]{24}$/u);

    const list = await client.get(`/conversations/list.php?userId=${id}`);
    expect(list.status).toBe(200);
    expect(list.body.conversations).toHaveLength(1);
    expect(list.body.conversations[0]).toMatchObject({
      id: conversationId,
      title: "How do I make bread at home?",
      lastMessage: "Mix flour, water, yeast and salt.",
      type: "text",
      messageCount: 2,
    });
    expect(Date.parse(list.body.conversations[0].created_at)).not.toBeNaN();

    const loaded = await client.get(`/conversations/load.php?conversationId=${conversationId}&userId=${id}`);
    expect(loaded.status).toBe(200);
    expect(loaded.body.conversation.messages).toEqual(messages);
    expect(loaded.body.messages).toEqual(messages);

    const more = [...messages, { type: "user", content: "And without yeast?", timestamp: at(3) }];
    const updated = await client.post("/conversations/save.php", { userId: id, conversationId, title: "Bread", messages: more });
    expect(updated.body.conversationId).toBe(conversationId);
    const reloaded = await client.get(`/conversations/load.php?conversationId=${conversationId}`);
    expect(reloaded.body.conversation).toMatchObject({ title: "Bread", messageCount: 3 });
    expect((await client.get("/conversations/list.php")).body.conversations).toHaveLength(1);

    const deleted = await client.post("/conversations/delete.php", { conversationId, userId: id });
    expect(deleted.status).toBe(200);
    expect((await client.get(`/conversations/load.php?conversationId=${conversationId}`)).status).toBe(404);
    expect((await client.get("/conversations/list.php")).body.conversations).toEqual([]);
    expect((await client.post("/conversations/delete.php", { conversationId })).status).toBe(404);
  });

  it("hides a conversation from everyone but its owner", async () => {
    const owner = await newUser();
    const other = await newUser();
    const saved = await owner.client.post("/conversations/save.php", {
      conversationId: "new",
      messages: [{ type: "user", content: "private", timestamp: at(1) }],
    });
    const conversationId: string = saved.body.conversationId;

    expect((await other.client.get(`/conversations/load.php?conversationId=${conversationId}`)).status).toBe(404);
    expect((await other.client.post("/conversations/delete.php", { conversationId })).status).toBe(404);
    const overwrite = await other.client.post("/conversations/save.php", {
      conversationId,
      messages: [{ type: "user", content: "mine now", timestamp: at(2) }],
    });
    expect(overwrite.status).toBe(404);
    expect((await other.client.get("/conversations/list.php")).body.conversations).toEqual([]);
    // Another user's id in the query is refused outright.
    expect((await other.client.get(`/conversations/list.php?userId=${owner.id}`)).status).toBe(403);
    expect((await new Client().get("/conversations/list.php")).status).toBe(401);

    const intact = await owner.client.get(`/conversations/load.php?conversationId=${conversationId}`);
    expect(intact.body.conversation.messages).toEqual([{ type: "user", content: "private", timestamp: at(1) }]);
  });

  it("titles a conversation from its first user message when the client sends none", async () => {
    const { client } = await newUser();
    const long = "Tell me everything about the history of the Roman empire please";
    const saved = await client.post("/conversations/save.php", {
      conversationId: "new",
      messages: [
        { type: "ai", content: "Welcome", timestamp: at(0) },
        { type: "user", content: long, timestamp: at(1) },
      ],
    });
    expect(saved.body.conversation.title).toBe(`${long.slice(0, 50)}...`);
    const empty = await client.post("/conversations/save.php", { conversationId: "new", messages: [] });
    expect(empty.body.conversation.title).toBe("New Conversation");
  });

  it("keeps Doctor conversations under the screen's own conv_ ids with a [Doctor] title", async () => {
    const { client } = await newUser();
    const conversationId = `conv_${Date.now()}_abc`;
    const first = await client.post("/conversations/save.php", {
      conversationId,
      avatarType: "doctor",
      messages: [
        { type: "user", content: "I feel dizzy when I stand up", timestamp: at(1), id: "m1" },
        { type: "ai", content: "That can be low blood pressure.", timestamp: at(2), id: "m2" },
      ],
    });
    expect(first.status).toBe(200);
    expect(first.body.conversationId).toBe(conversationId);
    expect(first.body.conversation.title).toBe("[Doctor] I feel dizzy when");

    const doctorList = await client.get("/conversations/list.php?kind=doctor");
    expect(doctorList.body.conversations).toHaveLength(1);
    expect(doctorList.body.conversations[0]).toMatchObject({
      id: conversationId,
      lastMessage: "That can be low blood pressure.",
      type: "text",
      avatarType: "doctor",
    });
    expect(Date.parse(doctorList.body.conversations[0].timestamp)).not.toBeNaN();
    expect((await client.get("/conversations/list.php?kind=text")).body.conversations).toEqual([]);

    const loaded = await client.get(`/conversations/load.php?conversationId=${conversationId}`);
    expect(loaded.body.messages[0]).toMatchObject({ id: "m1", type: "user" });
  });

  it("bounds what a save may carry, naming the field", async () => {
    const { client } = await newUser();
    const badType = await client.post("/conversations/save.php", {
      conversationId: "new",
      messages: [{ type: "robot", content: "x" }],
    });
    expect(badType.status).toBe(400);
    expect(badType.body.field).toMatch(/^messages/u);
    const tooMany = await client.post("/conversations/save.php", {
      conversationId: "new",
      messages: Array.from({ length: 501 }, () => ({ type: "user", content: "x" })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.field).toBe("messages");
    const badId = await client.get("/conversations/load.php?conversationId=../../etc");
    expect(badId.status).toBe(400);
    expect(badId.body.field).toBe("conversationId");
    expect((await client.get("/conversations/list.php")).body.conversations).toEqual([]);
  });
});
