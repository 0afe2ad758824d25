/** SPEC §7 images/*: over real HTTP against the whole stack (offline image provider). */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { Client, giveCoins, newUser, walletCoins } from "../support/client";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Downloads a media URL with the client's session (the URL is "/api/media/..."). */
async function download(client: Client, url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${client.baseUrl}${url}`, { headers: { cookie: client.cookieHeader() } });
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

async function expectPng(client: Client, url: string, width: number, height: number): Promise<Buffer> {
  const file = await download(client, url);
  expect(file.status).toBe(200);
  expect(file.type).toBe("image/png");
  expect(file.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const meta = await sharp(file.bytes).metadata();
  expect([meta.format, meta.width, meta.height]).toEqual(["png", width, height]);
  return file.bytes;
}

async function userWithCoins(amount: number) {
  const user = await newUser();
  await giveCoins(user.id, amount);
  return user;
}

function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><rect width="100%" height="100%" fill="#e11d48"/><circle cx="160" cy="120" r="80" fill="#22c55e"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function editForm(fields: Record<string, string>, file?: { bytes: Buffer; name: string; type: string }): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("image", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}

describe("images/generate.php", () => {
  it("answers with the picture's URL, charges 20 coins and serves a real PNG of the size to its owner only", async () => {
    const { client, id } = await userWithCoins(100);
    const res = await client.post("/images/generate.php", { prompt: "a lighthouse at dusk", size: "1792x1024", userId: id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      imageUrl: expect.stringMatching(new RegExp(`^/api/media/images/${id}/[a-f0-9]{24}\\.png$`, "u")),
    });
    expect(res.body.image).toMatchObject({
      url: res.body.imageUrl,
      prompt: "a lighthouse at dusk",
      size: "1792x1024",
      mode: "generate",
    });
    expect(await walletCoins(client)).toBe(80);
    await expectPng(client, res.body.imageUrl, 1792, 1024);

    const stranger = await newUser();
    expect((await download(stranger.client, res.body.imageUrl)).status).toBe(404);
    expect((await download(new Client(), res.body.imageUrl)).status).toBe(401);
  });

  it("uses the agent's default size and template (poster 1080x1920), and the default agent without one", async () => {
    const { client } = await userWithCoins(100);
    const poster = await client.post("/images/generate.php", { prompt: "Be kind", agent: "whatsapp-poster" });
    expect(poster.status).toBe(200);
    expect(poster.body.image.size).toBe("1080x1920");
    await expectPng(client, poster.body.imageUrl, 1080, 1920);
    const plain = await client.post("/images/generate.php", { prompt: "a cat" });
    expect(plain.status).toBe(200);
    await expectPng(client, plain.body.imageUrl, 1024, 1024);
    expect(await walletCoins(client)).toBe(60);
  });

  it("refuses bad input with 400 naming the field, and charges nothing", async () => {
    const { client, id } = await userWithCoins(100);
    const badSize = await client.post("/images/generate.php", { prompt: "x", size: "999x999", userId: id });
    expect(badSize.status).toBe(400);
    expect(badSize.body).toMatchObject({ success: false, field: "size" });
    expect(badSize.body.error).toContain("1024x1024");
    const noPrompt = await client.post("/images/generate.php", { prompt: "   ", size: "1024x1024" });
    expect(noPrompt.status).toBe(400);
    expect(noPrompt.body.error).toContain("Please enter a prompt");
    const badAgent = await client.post("/images/generate.php", { prompt: "x", agent: "painter" });
    expect(badAgent.status).toBe(400);
    expect(badAgent.body.field).toBe("agent");
    // The picture enhancer improves an uploaded picture: generate has none to improve.
    const enhancer = await client.post("/images/generate.php", { prompt: "x", agent: "picture-enhancer" });
    expect(enhancer.status).toBe(400);
    expect(enhancer.body).toMatchObject({ error: "Please select an image to edit", field: "image" });
    expect(await walletCoins(client)).toBe(100);
    expect((await client.get("/images/history.php")).body.images).toEqual([]);
  });

  it("402 with the available figure when the wallet is short, and no picture is made", async () => {
    const { client } = await userWithCoins(19);
    const res = await client.post("/images/generate.php", { prompt: "x" });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, error: "Insufficient coins", needed: 20, available: 19 });
    expect(await walletCoins(client)).toBe(19);
    expect((await client.get("/images/history.php")).body.images).toEqual([]);
  });

  it("refuses another user's id (403) and a visitor (401)", async () => {
    const { client } = await userWithCoins(100);
    const other = await newUser();
    expect((await client.post("/images/generate.php", { prompt: "x", userId: other.id })).status).toBe(403);
    expect((await new Client().post("/images/generate.php", { prompt: "x" })).status).toBe(401);
    expect(await walletCoins(client)).toBe(100);
  });

  it("a retried request with the same Idempotency-Key makes one picture and one charge", async () => {
    const { client } = await userWithCoins(100);
    const headers = { "Idempotency-Key": `img-retry-${Date.now()}` };
    const [a, b] = await Promise.all([
      client.post("/images/generate.php", { prompt: "same request" }, headers),
      client.post("/images/generate.php", { prompt: "same request" }, headers),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.imageUrl).toBe(b.body.imageUrl);
    expect(await walletCoins(client)).toBe(80);
    expect((await client.get("/images/history.php")).body.images).toHaveLength(1);
  });
});

describe("images/edit.php", () => {
  it("edits an upload (strength default 0.8) into a PNG of the asked size and charges 20", async () => {
    const { client, id } = await userWithCoins(100);
    const original = await photo();
    const res = await client.post(
      "/images/edit.php",
      editForm(
        { prompt: "make it black and white", size: "1024x1792", userId: id },
        { bytes: original, name: "a.png", type: "image/png" },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      image: { mode: "edit", size: "1024x1792", prompt: "make it black and white" },
    });
    const edited = await expectPng(client, res.body.imageUrl, 1024, 1792);
    // A real transformation: at 0.8 the picture is mostly grey (channel means close together).
    const means = (await sharp(edited).stats()).channels.slice(0, 3).map((c) => c.mean);
    const originalMeans = (await sharp(original).stats()).channels.slice(0, 3).map((c) => c.mean);
    const spread = (m: number[]) => Math.max(...m) - Math.min(...m);
    expect(spread(means)).toBeLessThan(spread(originalMeans) / 2);
    expect(await walletCoins(client)).toBe(80);
  });

  it("accepts JPG and WEBP and a strength at both ends", async () => {
    const { client } = await userWithCoins(100);
    const jpg = await sharp(await photo())
      .jpeg()
      .toBuffer();
    const webp = await sharp(await photo())
      .webp()
      .toBuffer();
    const a = await client.post(
      "/images/edit.php",
      editForm({ prompt: "warmer", strength: "0.1" }, { bytes: jpg, name: "a.jpg", type: "image/jpeg" }),
    );
    const b = await client.post(
      "/images/edit.php",
      editForm({ prompt: "warmer", strength: "1" }, { bytes: webp, name: "b.webp", type: "image/webp" }),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    await expectPng(client, b.body.imageUrl, 1024, 1024);
    expect(await walletCoins(client)).toBe(60);
  });

  it("two edits sent at once with one Idempotency-Key make one picture and one charge", async () => {
    const { client } = await userWithCoins(100);
    const headers = { "Idempotency-Key": `edit-race-${Date.now()}` };
    const png = { bytes: await photo(), name: "a.png", type: "image/png" };
    const [a, b] = await Promise.all([
      client.post("/images/edit.php", editForm({ prompt: "sepia" }, png), headers),
      client.post("/images/edit.php", editForm({ prompt: "sepia" }, png), headers),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.imageUrl).toBe(a.body.imageUrl);
    await expectPng(client, a.body.imageUrl, 1024, 1024);
    expect(await walletCoins(client)).toBe(80);
  });

  it("refuses bad uploads and fields with SPEC's messages, charging nothing", async () => {
    const { client } = await userWithCoins(100);
    const png = { bytes: await photo(), name: "a.png", type: "image/png" };
    const strength = await client.post("/images/edit.php", editForm({ prompt: "x", strength: "2" }, png));
    expect(strength.status).toBe(400);
    expect(strength.body).toMatchObject({ success: false, field: "strength" });
    const low = await client.post("/images/edit.php", editForm({ prompt: "x", strength: "0.05" }, png));
    expect(low.status).toBe(400);
    const notImage = await client.post(
      "/images/edit.php",
      editForm({ prompt: "x" }, { bytes: Buffer.from("just some text, not a picture"), name: "notes.png", type: "image/png" }),
    );
    expect(notImage.status).toBe(400);
    expect(notImage.body).toMatchObject({ error: "Please select a valid image file", field: "image" });
    const gif = await sharp(await photo())
      .gif()
      .toBuffer();
    const gifRes = await client.post(
      "/images/edit.php",
      editForm({ prompt: "x" }, { bytes: gif, name: "a.gif", type: "image/gif" }),
    );
    expect(gifRes.body.error).toBe("Please select a valid image file");
    const big = await client.post(
      "/images/edit.php",
      editForm({ prompt: "x" }, { bytes: Buffer.alloc(11 * 1024 * 1024, 1), name: "big.png", type: "image/png" }),
    );
    expect(big.status).toBe(413);
    expect(big.body.error).toBe("File size must be less than 10MB");
    const missing = await client.post("/images/edit.php", editForm({ prompt: "x" }));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("Please select an image to edit");
    const noPrompt = await client.post("/images/edit.php", editForm({}, png));
    expect(noPrompt.status).toBe(400);
    expect(noPrompt.body.error).toContain("Please enter a prompt");
    const badSize = await client.post("/images/edit.php", editForm({ prompt: "x", size: "10x10" }, png));
    expect(badSize.body.field).toBe("size");
    expect(await walletCoins(client)).toBe(100);
  });

  it("refuses an upload wider or taller than 4096 px (a small file that decodes to 1 GB) with 400 naming image, charging nothing", async () => {
    const { client } = await userWithCoins(100);
    // A flat 16000 px square: under 1 MB as a PNG, 768 MB once decoded.
    const bomb = await sharp({ create: { width: 16000, height: 16000, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    expect(bomb.length).toBeLessThan(10 * 1024 * 1024);
    const tall = await sharp({ create: { width: 8, height: 4097, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    for (const bytes of [bomb, tall]) {
      const res = await client.post("/images/edit.php", editForm({ prompt: "x" }, { bytes, name: "big.png", type: "image/png" }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        field: "image",
        error: "image: image must be at most 4096 x 4096 pixels",
      });
    }
    expect(await walletCoins(client)).toBe(100);
  });
});

describe("images history, save and delete", () => {
  it("lists the user's pictures newest first, saves client records once, and deletes only the owner's", async () => {
    const { client, id } = await userWithCoins(100);
    const first = (await client.post("/images/generate.php", { prompt: "first" })).body;
    const second = (await client.post("/images/generate.php", { prompt: "second" })).body;
    const history = await client.get(`/images/history.php?userId=${id}`);
    expect(history.status).toBe(200);
    expect(history.body.images.map((i: { prompt: string }) => i.prompt)).toEqual(["second", "first"]);
    expect(history.body.images[0]).toEqual({
      id: second.image.id,
      url: second.imageUrl,
      prompt: "second",
      size: "1024x1024",
      mode: "generate",
      timestamp: expect.any(String),
    });

    // The screen saves what it just got: the same picture is not listed twice (by id or by URL).
    expect((await client.post("/images/save.php", { userId: id, imageData: second.image })).body).toEqual({ success: true });
    const byUrl = { ...first.image, id: `client-${Date.now()}` };
    expect((await client.post("/images/save.php", { userId: id, imageData: byUrl })).status).toBe(200);
    const again = { ...second.image, id: "own-1", prompt: "kept", mode: "edit", timestamp: Date.now() };
    expect((await client.post("/images/save.php", { imageData: again })).status).toBe(200);
    const after = (await client.get("/images/history.php")).body.images;
    expect(after).toHaveLength(2);
    expect(after.find((i: { url: string }) => i.url === second.imageUrl)).toMatchObject({ prompt: "kept", mode: "edit" });

    // Only what the product made for this user: no foreign site, no script URL, no other user's file.
    const stranger = await newUser();
    const theirs = { id: "theirs", url: first.imageUrl, prompt: "", size: "1024x1024", mode: "generate" };
    expect((await stranger.client.post("/images/save.php", { imageData: theirs })).body).toMatchObject({
      field: "imageData.url",
    });
    for (const url of ["https://cdn.example.test/a.png", "javascript:alert(1)", `https://evil.example${first.imageUrl}`]) {
      const refused = await client.post("/images/save.php", { imageData: { id: "ext-1", url } });
      expect(refused.status, url).toBe(400);
      expect(refused.body.field, url).toBe("imageData.url");
    }
    expect((await stranger.client.get("/images/history.php")).body.images).toEqual([]);
    expect((await client.get("/images/history.php")).body.images).toHaveLength(2);

    // A timestamp that is not a date is refused, not replaced by the current time.
    for (const timestamp of ["not-a-date", "2026-13-45", 1e20, "1"]) {
      const refused = await client.post("/images/save.php", { imageData: { ...second.image, timestamp } });
      expect(refused.status, String(timestamp)).toBe(400);
      expect(refused.body.field, String(timestamp)).toBe("imageData.timestamp");
    }
    const dated = await client.post("/images/save.php", { imageData: { ...second.image, timestamp: "2026-01-02T03:04:05Z" } });
    expect(dated.status).toBe(200);

    const badSave = await client.post("/images/save.php", { imageData: { id: "x", url: "u", mode: "paint" } });
    expect(badSave.status).toBe(400);
    expect(badSave.body.field).toBe("imageData.mode");

    // Another user can neither list, delete nor fetch it.
    expect((await stranger.client.get(`/images/history.php?userId=${id}`)).status).toBe(403);
    expect((await stranger.client.get("/images/history.php")).body.images).toEqual([]);
    const foreignDelete = await stranger.client.post("/images/delete.php", { imageId: first.image.id });
    expect(foreignDelete.status).toBe(404);
    expect((await download(client, first.imageUrl)).status).toBe(200);

    const deleted = await client.post("/images/delete.php", { imageId: first.image.id });
    expect(deleted.body).toEqual({ success: true });
    expect((await download(client, first.imageUrl)).status).toBe(404);
    expect((await client.post("/images/delete.php", { imageId: first.image.id })).status).toBe(404);
    expect((await client.post("/images/delete.php", {})).status).toBe(400);
    const remaining = (await client.get("/images/history.php")).body.images.map((i: { id: string }) => i.id);
    expect(remaining).not.toContain(first.image.id);
    expect(remaining).toContain(second.image.id);
  });

  it("keeps a file another record shows when one is deleted, and removes the file a re-pointed record left", async () => {
    const { client } = await userWithCoins(100);
    const a = (await client.post("/images/generate.php", { prompt: "a" })).body;
    const b = (await client.post("/images/generate.php", { prompt: "b" })).body;
    // B is re-pointed at A's picture (the screen keeps a picture under another record's id).
    const moved = await client.post("/images/save.php", { imageData: { ...b.image, url: a.imageUrl } });
    expect(moved.status).toBe(200);
    // Nothing shows B's old file any more: it is removed, not left behind.
    expect((await download(client, b.imageUrl)).status).toBe(404);

    expect((await client.post("/images/delete.php", { imageId: a.image.id })).status).toBe(200);
    const left = (await client.get("/images/history.php")).body.images;
    expect(left.map((i: { id: string; url: string }) => [i.id, i.url])).toEqual([[b.image.id, a.imageUrl]]);
    // B still shows A's picture: the file it names was not removed with A.
    await expectPng(client, a.imageUrl, 1024, 1024);

    expect((await client.post("/images/delete.php", { imageId: b.image.id })).status).toBe(200);
    expect((await download(client, a.imageUrl)).status).toBe(404);
  });
});
