/** The image worker's own bound on decodes: defence in depth behind the API's 4096 px upload limit. */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ProviderError } from "../errors";
import { blend, exactPng } from "./pixels";

const flatPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#fff" } })
    .png()
    .toBuffer();

describe("pixels", () => {
  it("refuses to decode more than 4096 x 4096 pixels as a permanent fault, whatever the output size", async () => {
    const bomb = await flatPng(4097, 4097);
    const small = await flatPng(8, 8);
    const size = { width: 16, height: 16 };
    await expect(exactPng(bomb, size, "the uploaded image")).rejects.toThrow(ProviderError);
    await expect(exactPng(bomb, size, "the uploaded image")).rejects.toMatchObject({ retryable: false });
    await expect(blend(bomb, small, 0.5, size)).rejects.toThrow("the uploaded image is not a readable image");
    await expect(blend(small, bomb, 0.5, size)).rejects.toThrow("the edited image is not a readable image");
    const ok = await exactPng(small, size, "the uploaded image");
    expect(await sharp(ok).metadata()).toMatchObject({ format: "png", width: 16, height: 16 });
  });
});
