/**
 * A recording pass-through on 127.0.0.1 between a real gateway and the product: every request the
 * gateway makes is kept byte for byte (method, URL, headers, body) with the product's answer, so a
 * suite can assert on the gateway's real wire format and replay it. It changes nothing in between.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Captured {
  method: string;
  /** Path and query string, as the gateway sent them. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  status: number;
  answer: string;
}

export class CaptureProxy {
  readonly captured: Captured[] = [];
  private server: Server | null = null;
  url = "";

  constructor(private readonly target: string) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === "string" && !["host", "connection", "content-length", "transfer-encoding"].includes(name))
            headers[name] = value;
        }
        void fetch(`${this.target}${req.url ?? "/"}`, {
          method: req.method ?? "GET",
          headers,
          ...(req.method === "GET" || req.method === "HEAD" ? {} : { body }),
        }).then(
          async (answer) => {
            const text = await answer.text();
            this.captured.push({
              method: req.method ?? "",
              url: req.url ?? "",
              headers: req.headers,
              body,
              status: answer.status,
              answer: text,
            });
            res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
            res.end(text);
          },
          () => {
            this.captured.push({
              method: req.method ?? "",
              url: req.url ?? "",
              headers: req.headers,
              body,
              status: 502,
              answer: "",
            });
            res.writeHead(502);
            res.end();
          },
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
}
