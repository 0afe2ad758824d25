/**
 * The OpenAI images API: POST {base}/images/generations (JSON) and {base}/images/edits
 * (multipart), answering { data: [{ b64_json }] }. Results are re-encoded to the exact size asked.
 */
import { z } from "zod";
import { joinUrl, malformed, providerFetch, readJson, type ProviderCallOptions } from "../http";
import { blend, exactPng, parseSize, type Dimensions } from "./pixels";
import type { ImageEditRequest, ImageGenerateRequest, ImageProvider } from "./types";

export interface OpenAiImageOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

const imagesResponseSchema = z.object({ data: z.array(z.object({ b64_json: z.string().min(1) })).min(1) });

/**
 * The size to ask the model for: the one of its sizes with the same orientation (SPEC sizes
 * such as 1080x1920 are not model sizes); the answer is then scaled to the exact SPEC size.
 */
function modelSize(model: string, { width, height }: Dimensions): string {
  const orientation = width === height ? "square" : width > height ? "landscape" : "portrait";
  if (model.startsWith("dall-e-2")) return "1024x1024";
  if (model.startsWith("dall-e-3")) {
    return { square: "1024x1024", landscape: "1792x1024", portrait: "1024x1792" }[orientation];
  }
  return { square: "1024x1024", landscape: "1536x1024", portrait: "1024x1536" }[orientation];
}

/** DALL·E answers with URLs unless told otherwise; gpt-image models always send base64 and reject the field. */
function wantsResponseFormat(model: string): boolean {
  return model.startsWith("dall-e");
}

export function openAiImageProvider(options: OpenAiImageOptions): ImageProvider {
  const headers = (): Record<string, string> => (options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {});
  const call = (signal?: AbortSignal): ProviderCallOptions => ({
    provider: "openai-images",
    timeoutMs: options.timeoutMs,
    ...(signal ? { signal } : {}),
  });

  async function firstImage(response: Response, opts: ProviderCallOptions): Promise<Buffer> {
    const parsed = imagesResponseSchema.safeParse(await readJson(response, opts));
    if (!parsed.success) throw malformed(opts.provider, "no data[0].b64_json");
    const bytes = Buffer.from(parsed.data.data[0]!.b64_json, "base64");
    if (bytes.length === 0) throw malformed(opts.provider, "empty image");
    return bytes;
  }

  return {
    name: "openai",
    async generate(req: ImageGenerateRequest, signal?: AbortSignal) {
      const size = parseSize(req.size);
      const opts = call(signal);
      const response = await providerFetch(
        joinUrl(options.baseUrl, "images/generations"),
        {
          method: "POST",
          headers: { ...headers(), "content-type": "application/json" },
          body: JSON.stringify({
            model: options.model,
            prompt: req.prompt,
            n: 1,
            size: modelSize(options.model, size),
            ...(wantsResponseFormat(options.model) ? { response_format: "b64_json" } : {}),
          }),
        },
        opts,
      );
      return exactPng(await firstImage(response, opts), size, "the generated image");
    },
    async edit(req: ImageEditRequest, signal?: AbortSignal) {
      const size = parseSize(req.size);
      const opts = call(signal);
      const request = parseSize(modelSize(options.model, size));
      // The edits endpoint wants a PNG; sending it at the model's size keeps uploads small.
      const png = await exactPng(req.image, request, "the uploaded image");
      const form = new FormData();
      form.set("model", options.model);
      form.set("prompt", req.prompt);
      form.set("n", "1");
      form.set("size", modelSize(options.model, size));
      if (wantsResponseFormat(options.model)) form.set("response_format", "b64_json");
      form.set("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "image.png");
      const response = await providerFetch(
        joinUrl(options.baseUrl, "images/edits"),
        { method: "POST", headers: headers(), body: form },
        opts,
      );
      const edited = await firstImage(response, opts);
      // The API has no strength: blending with the original applies SPEC's 0.1-1 scale.
      return blend(req.image, edited, req.strength, size);
    },
  };
}
