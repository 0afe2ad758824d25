/** Image providers: the OpenAI images client against a local peer, and the offline renderer. */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineImageProvider, openAiImageProvider } from "../../workers/src/providers/index";
import { OpenAiPeer } from "../peers/openai";
import { providerRejection } from "../support/providers";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function expectPng(bytes: Buffer, width: number, height: number): Promise<void> {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe("png");
  expect([meta.width, meta.height]).toEqual([width, height]);
}

async function photo(width = 300, height = 200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="50%" height="100%" fill="#e11d48"/><rect x="50%" width="50%" height="100%" fill="#22c55e"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

async function meanColour(png: Buffer): Promise<number[]> {
  const stats = await sharp(png).stats();
  return stats.channels.slice(0, 3).map((c) => c.mean);
}

describe("OpenAI images provider", () => {
  const peer = new OpenAiPeer("sk-img");
  let provider: ReturnType<typeof openAiImageProvider>;

  beforeAll(async () => {
    const url = await peer.start();
    provider = openAiImageProvider({ baseUrl: `${url}/v1`, apiKey: "sk-img", model: "dall-e-3", timeoutMs: 1500 });
  });
  afterAll(() => peer.stop());

  it("generates through /images/generations and returns a PNG of exactly the SPEC size", async () => {
    const png = await provider.generate({ prompt: "a red fox", size: "1080x1920" });
    await expectPng(png, 1080, 1920);
    const sent = peer.requestsTo(/generations/u).at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer sk-img");
    // 1080x1920 is portrait: DALL·E 3 is asked for its own portrait size, then scaled.
    expect(JSON.parse(sent.body.toString())).toMatchObject({
      model: "dall-e-3",
      prompt: "a red fox",
      size: "1024x1792",
      response_format: "b64_json",
      n: 1,
    });
  });

  it("gpt-image models get their own sizes and no response_format", async () => {
    const gpt = openAiImageProvider({ baseUrl: `${peer.url}/v1`, apiKey: "sk-img", model: "gpt-image-1", timeoutMs: 1500 });
    await expectPng(await gpt.generate({ prompt: "x", size: "1792x1024" }), 1792, 1024);
    const body = JSON.parse(
      peer
        .requestsTo(/generations/u)
        .at(-1)!
        .body.toString(),
    );
    expect(body.size).toBe("1536x1024");
    expect(body.response_format).toBeUndefined();
  });

  it("edits through multipart /images/edits and blends the answer by strength", async () => {
    const original = await photo();
    const full = await provider.edit({ image: original, prompt: "invert it", strength: 1, size: "1024x1024" });
    await expectPng(full, 1024, 1024);
    const light = await provider.edit({ image: original, prompt: "invert it", strength: 0.1, size: "1024x1024" });
    const sent = peer.requestsTo(/edits/u).at(-1)!;
    expect(String(sent.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/u);
    expect(sent.body.toString("latin1")).toContain('name="image"; filename="image.png"');
    // The peer negates the picture: strength 1 is the negative, 0.1 stays close to the original.
    const base = await meanColour(await sharp(original).resize(1024, 1024, { fit: "cover" }).png().toBuffer());
    const [fullC, lightC] = [await meanColour(full), await meanColour(light)];
    const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!));
    expect(distance(lightC, base)).toBeLessThan(distance(fullC, base));
    expect(
      distance(
        fullC,
        base.map((v) => 255 - v),
      ),
    ).toBeLessThan(3);
  });

  it("a content refusal (400) is permanent and says why", async () => {
    const error = await providerRejection(provider.generate({ prompt: "something forbidden", size: "1024x1024" }));
    expect(error).toMatchObject({ retryable: false, status: 400 });
    expect(error.message).toContain("safety system");
  });

  it("429 with an HTTP-date Retry-After is retryable with the wait", async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    peer.failNext(/generations/u, { kind: "status", status: 429, headers: { "retry-after": at } });
    const error = await providerRejection(provider.generate({ prompt: "x", size: "1024x1024" }));
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeGreaterThan(25_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it("5xx and timeouts are retryable", async () => {
    peer.failNext(/edits/u, { kind: "status", status: 502 });
    expect(
      await providerRejection(provider.edit({ image: await photo(), prompt: "x", strength: 0.5, size: "1024x1024" })),
    ).toMatchObject({
      retryable: true,
      status: 502,
    });
    peer.failNext(/generations/u, { kind: "hang" });
    const error = await providerRejection(provider.generate({ prompt: "x", size: "1024x1024" }));
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/did not answer/u);
  });

  it("malformed replies are permanent: not JSON, no data, or bytes that are not an image", async () => {
    peer.failNext(/generations/u, { kind: "malformed", body: "{oops" });
    expect((await providerRejection(provider.generate({ prompt: "x", size: "1024x1024" }))).retryable).toBe(false);
    peer.failNext(/generations/u, { kind: "malformed", body: JSON.stringify({ data: [] }) });
    expect((await providerRejection(provider.generate({ prompt: "x", size: "1024x1024" }))).retryable).toBe(false);
    peer.failNext(/generations/u, {
      kind: "malformed",
      body: JSON.stringify({ data: [{ b64_json: Buffer.from("not a png").toString("base64") }] }),
    });
    const error = await providerRejection(provider.generate({ prompt: "x", size: "1024x1024" }));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/not a readable image/u);
  });
});

describe("offline image provider", () => {
  const provider = offlineImageProvider();

  it("renders a real PNG of each size, the same for the same prompt and different for another", async () => {
    for (const [size, w, h] of [
      ["1024x1024", 1024, 1024],
      ["1024x1792", 1024, 1792],
      ["1792x1024", 1792, 1024],
      ["1080x1920", 1080, 1920],
    ] as const) {
      await expectPng(await provider.generate({ prompt: "a lighthouse at dusk", size }), w, h);
    }
    const a = await provider.generate({ prompt: "a lighthouse at dusk", size: "1024x1024" });
    const b = await provider.generate({ prompt: "a lighthouse at dusk", size: "1024x1024" });
    const c = await provider.generate({ prompt: "a green forest", size: "1024x1024" });
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    const stats = await sharp(a).stats();
    // Not a flat fill: the gradient, shapes and text vary the pixels.
    expect(Math.max(...stats.channels.slice(0, 3).map((ch) => ch.stdev))).toBeGreaterThan(10);
  });

  it("edit transforms the upload by strength and answers the requested size", async () => {
    const original = await photo();
    const base = await meanColour(await sharp(original).resize(1024, 1792, { fit: "cover" }).png().toBuffer());
    const weak = await provider.edit({ image: original, prompt: "make it black and white", strength: 0.1, size: "1024x1792" });
    const strong = await provider.edit({ image: original, prompt: "make it black and white", strength: 1, size: "1024x1792" });
    await expectPng(strong, 1024, 1792);
    const [weakC, strongC] = [await meanColour(weak), await meanColour(strong)];
    const spread = (c: number[]) => Math.max(...c) - Math.min(...c);
    // Greyscale at full strength: the channels agree; at 0.1 the colours stay.
    expect(spread(strongC)).toBeLessThan(2);
    expect(spread(weakC)).toBeGreaterThan(spread(base) * 0.8);
  });

  it("edit refuses bytes that are not an image as a permanent fault", async () => {
    const error = await providerRejection(
      provider.edit({ image: Buffer.from("hello"), prompt: "x", strength: 0.5, size: "1024x1024" }),
    );
    expect(error.retryable).toBe(false);
  });
});
