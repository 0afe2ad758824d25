/** A local HTTP SMS gateway for the tests (127.0.0.1 only): records sends, fails on demand. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface GatewaySend {
  body: Record<string, any>;
  authorization: string | undefined;
  at: number;
  /** HTTP status this request was answered with. */
  status: number;
}

export class HttpGatewayPeer {
  readonly received: GatewaySend[] = [];
  private failures: number[] = [];
  private server: Server | null = null;
  url = "";

  /** The next n sends are answered with `status` (500 by default) before normal service resumes. */
  failNext(n: number, status = 500): void {
    for (let i = 0; i < n; i++) this.failures.push(status);
  }

  /** Accepted (2xx) sends whose text is not a test. */
  get delivered(): GatewaySend[] {
    return this.received.filter((r) => r.status < 300 && !r.body.test);
  }

  deliveredTo(phone: string): GatewaySend[] {
    const digits = phone.replace(/^\+/u, "");
    return this.delivered.filter((r) => String(r.body.to).replace(/^\+/u, "") === digits);
  }

  async start(): Promise<string> {
    let counter = 0;
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        let body: Record<string, any> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          body = { unparsable: true };
        }
        const status = this.failures.shift() ?? 200;
        this.received.push({ body, authorization: req.headers.authorization, at: Date.now(), status });
        res.writeHead(status, { "content-type": "application/json" });
        counter += 1;
        res.end(JSON.stringify(status < 300 ? { status: "accepted", message_id: `gw-${counter}` } : { error: "gateway busy" }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/send`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
