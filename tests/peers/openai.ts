/**
 * A local OpenAI-compatible peer: POST /v1/chat/completions (stream: true → Server-Sent Events of
 * chat.completion.chunk, then [DONE]), POST /v1/images/generations (JSON) and
 * POST /v1/images/edits (multipart), both answering { data: [{ b64_json }] }.
 */
import sharp from "sharp";
import { bearerOk, json, Peer, type RecordedRequest } from "./peer";

/** The peer's chat answer to a message, streamed word by word. */
export function peerReply(message: string): string {
  return `You said: ${message}. This reply comes from the local peer.`;
}

/** "stall" keeps the socket open mid-stream, "cut" closes it before [DONE], "garbage" sends a non-JSON event. */
type ChatMode = "normal" | "stall" | "cut" | "garbage" | "stream-error";

export class OpenAiPeer extends Peer {
  /** How the next chat streams behave after the headers (consumed one per request). */
  readonly chatModes: ChatMode[] = [];

  constructor(readonly apiKey?: string) {
    super([
      { method: "POST", path: /\/v1\/chat\/completions$/u, handle: (req, res) => this.chat(req, res) },
      { method: "POST", path: /\/v1\/images\/generations$/u, handle: (req, res) => this.generate(req, res) },
      { method: "POST", path: /\/v1\/images\/edits$/u, handle: (req, res) => this.edit(req, res) },
    ]);
  }

  private unauthorized(req: RecordedRequest, res: Parameters<typeof json>[0]): boolean {
    if (bearerOk(req, this.apiKey)) return false;
    json(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
    return true;
  }

  private async chat(req: RecordedRequest, res: Parameters<typeof json>[0]): Promise<void> {
    if (this.unauthorized(req, res)) return;
    const body = JSON.parse(req.body.toString()) as {
      model?: string;
      stream?: boolean;
      messages?: { role: string; content: string }[];
      max_tokens?: unknown;
    };
    if (!body.model || !Array.isArray(body.messages) || body.messages.length === 0) {
      return json(res, 400, { error: { message: "model and messages are required", type: "invalid_request_error" } });
    }
    const maxTokens = body.max_tokens;
    if (maxTokens !== undefined && (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1)) {
      return json(res, 400, {
        error: {
          message: "Invalid 'max_tokens': expected a positive integer.",
          type: "invalid_request_error",
          param: "max_tokens",
        },
      });
    }
    const last = body.messages[body.messages.length - 1]!;
    const reply = peerReply(last.content);
    if (!body.stream) {
      return json(res, 200, {
        id: "chatcmpl-peer",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: reply } }],
      });
    }
    const mode = this.chatModes.shift() ?? "normal";
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send = (data: unknown) => res.write(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: "chatcmpl-peer",
      object: "chat.completion.chunk",
      created: 1,
      model: body.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    res.write(": keep-alive comment\n\n");
    send(chunk({ role: "assistant", content: "" }));
    // One word stands for one token: a reply past max_tokens stops there, finish_reason "length".
    const allWords = reply.match(/\S+\s*/gu) ?? [];
    const words = typeof maxTokens === "number" ? allWords.slice(0, maxTokens) : allWords;
    for (const [i, word] of words.entries()) {
      if (i === 2 && mode === "stall") return this.hang(res);
      if (i === 2 && mode === "cut") return void res.socket?.destroy();
      if (i === 2 && mode === "garbage") {
        res.write("data: {this is not json\n\n");
        return void res.end();
      }
      if (i === 2 && mode === "stream-error") {
        send({ error: { message: "The server had an error while processing your request." } });
        return void res.end();
      }
      // Split one chunk's JSON across two writes: clients must buffer partial lines.
      const text = `data: ${JSON.stringify(chunk({ content: word }))}\r\n\r\n`;
      res.write(text.slice(0, 10));
      res.write(text.slice(10));
    }
    send(chunk({}, words.length < allWords.length ? "length" : "stop"));
    send("[DONE]");
    res.end();
  }

  private async generate(req: RecordedRequest, res: Parameters<typeof json>[0]): Promise<void> {
    if (this.unauthorized(req, res)) return;
    const body = JSON.parse(req.body.toString()) as { prompt?: string; size?: string; model?: string; response_format?: string };
    if (!body.prompt) return json(res, 400, { error: { message: "prompt is required", type: "invalid_request_error" } });
    if (/forbidden/iu.test(body.prompt)) {
      return json(res, 400, {
        error: {
          message: "Your request was rejected as a result of our safety system.",
          type: "image_generation_user_error",
          code: "content_policy_violation",
        },
      });
    }
    const [w, h] = (body.size ?? "1024x1024").split("x").map(Number) as [number, number];
    // A small picture of the model's size ratio: the client must scale it to the exact size asked.
    const png = await sharp({
      create: { width: Math.round(w / 16), height: Math.round(h / 16), channels: 3, background: "#3366cc" },
    })
      .png()
      .toBuffer();
    json(res, 200, { created: 1, data: [{ b64_json: png.toString("base64") }] });
  }

  private async edit(req: RecordedRequest, res: Parameters<typeof json>[0]): Promise<void> {
    if (this.unauthorized(req, res)) return;
    const form = await new Request("http://peer/", {
      method: "POST",
      headers: { "content-type": String(req.headers["content-type"]) },
      body: new Uint8Array(req.body),
    }).formData();
    const image = form.get("image");
    const prompt = form.get("prompt");
    if (!(image instanceof Blob) || typeof prompt !== "string" || !prompt) {
      return json(res, 400, { error: { message: "image and prompt are required", type: "invalid_request_error" } });
    }
    const input = Buffer.from(await image.arrayBuffer());
    const edited = await sharp(input).negate({ alpha: false }).png().toBuffer();
    json(res, 200, { created: 1, data: [{ b64_json: edited.toString("base64") }] });
  }
}
