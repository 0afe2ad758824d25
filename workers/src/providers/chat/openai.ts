/**
 * OpenAI-compatible chat completions with streaming (OpenAI, Azure's v1 endpoint, Ollama,
 * vLLM, LM Studio...): POST {base}/chat/completions, stream: true, Server-Sent Events.
 */
import { z } from "zod";
import { ProviderError } from "../errors";
import { callSignal, errorFromResponse, errorFromThrown, joinUrl, malformed, readJson, type ProviderCallOptions } from "../http";
import type { ChatProvider, ChatRequest } from "./types";

export interface OpenAiChatOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullish() }).partial().nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
});

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish() }) })).min(1),
});

const streamErrorSchema = z.object({ error: z.object({ message: z.string() }).or(z.string()) });

/** Splits an SSE byte stream into the data payload of each event (joined data: lines). */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r?\n/u)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === "\r" ? newline + 2 : newline + 1);
        if (line === "") {
          if (data.length) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(5).replace(/^ /u, ""));
        }
        // Other fields (event:, id:, retry:) and ":" comments carry nothing chat needs.
      }
      if (done) {
        if (buffer.startsWith("data:")) data.push(buffer.slice(5).replace(/^ /u, ""));
        if (data.length) yield data.join("\n");
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export function openAiChatProvider(options: OpenAiChatOptions): ChatProvider {
  const url = joinUrl(options.baseUrl, "chat/completions");
  return {
    name: "openai",
    async *stream(req: ChatRequest, signal?: AbortSignal) {
      const call: ProviderCallOptions = { provider: "openai", timeoutMs: options.timeoutMs, ...(signal ? { signal } : {}) };
      const { signal: combined, timedOut } = callSignal(call);
      const messages = [
        { role: "system", content: req.system },
        ...req.history.map((t) => ({ role: t.role, content: t.content })),
        { role: "user", content: req.message },
      ];
      const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      let finished = false;
      try {
        const response = await fetch(url, {
          method: "POST",
          headers,
          body: JSON.stringify({
            model: options.model,
            messages,
            stream: true,
            ...(req.maxTokens === undefined ? {} : { max_tokens: req.maxTokens }),
          }),
          signal: combined,
        });
        if (!response.ok) throw await errorFromResponse("openai", response);
        if (!response.body) throw malformed("openai", "no response body");
        const type = response.headers.get("content-type") ?? "";
        if (!type.includes("text/event-stream")) {
          // Some compatible servers ignore stream: true and answer one JSON completion.
          const whole = completionSchema.safeParse(await readJson(response, call));
          if (!whole.success) throw malformed("openai", `expected an event stream, got ${type || "no content type"}`);
          const content = whole.data.choices[0]?.message.content;
          if (content) yield content;
          return;
        }
        for await (const data of sseEvents(response.body)) {
          if (data === "[DONE]") {
            finished = true;
            break;
          }
          let json: unknown;
          try {
            json = JSON.parse(data);
          } catch {
            throw malformed("openai", `event is not JSON: ${data.slice(0, 120)}`);
          }
          const streamError = streamErrorSchema.safeParse(json);
          if (streamError.success) {
            const e = streamError.data.error;
            throw new ProviderError(`openai stream error: ${typeof e === "string" ? e : e.message}`, { retryable: false });
          }
          const chunk = chunkSchema.safeParse(json);
          if (!chunk.success) throw malformed("openai", "event is not a chat.completion.chunk");
          for (const choice of chunk.data.choices) {
            const content = choice.delta?.content;
            if (content) yield content;
          }
        }
      } catch (error) {
        throw errorFromThrown(error, call, timedOut());
      }
      // A stream that ends without [DONE] was cut off; the answer may be incomplete.
      if (!finished) throw new ProviderError("openai stream ended before [DONE]", { retryable: true });
    },
  };
}
