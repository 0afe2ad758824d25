/**
 * A local stand-in for an AI provider: a node http server on 127.0.0.1 that speaks the
 * provider's wire format, records every request, and can be told to misbehave for the next
 * calls (status codes with Retry-After, hangs, malformed bodies) so the clients' error paths
 * are tested against real sockets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** How the peer answers the next matching request instead of its normal reply. */
export type Fault =
  /** `afterMs`: answered that long after the request came (a proxy that retries upstream first, as LiteLLM does). */
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string>; afterMs?: number }
  | { kind: "hang" }
  | { kind: "malformed"; body?: string; contentType?: string }
  | { kind: "close" };

export type Route = (req: RecordedRequest, res: ServerResponse, peer: Peer) => Promise<void> | void;

export class Peer {
  readonly requests: RecordedRequest[] = [];
  private readonly faults: { match: RegExp; fault: Fault }[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  url = "";

  constructor(private readonly routes: { method: string; path: RegExp; handle: Route }[]) {}

  /** Makes the next request whose "METHOD /path" matches `match` answer with `fault`. */
  failNext(match: RegExp, fault: Fault): void {
    this.faults.push({ match, fault });
  }

  /** Drops faults not used yet (a call that gave up before trying them all). */
  clearFaults(): void {
    this.faults.length = 0;
  }

  requestsTo(match: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => match.test(`${r.method} ${r.path}`));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.dispatch(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    this.requests.push(recorded);
    const line = `${recorded.method} ${recorded.path}`;
    const faultIndex = this.faults.findIndex((f) => f.match.test(line));
    if (faultIndex >= 0) {
      const fault = this.faults.splice(faultIndex, 1)[0]!.fault;
      return this.answerFault(fault, res);
    }
    const route = this.routes.find((r) => r.method === recorded.method && r.path.test(recorded.path.split("?")[0]!));
    if (!route) return json(res, 404, { error: { message: `no route ${line}` } });
    try {
      await route.handle(recorded, res, this);
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: { message: (error as Error).message } });
      else res.destroy();
    }
  }

  /** Keeps a response open until the peer stops (a provider that never answers). */
  hang(res: ServerResponse): void {
    this.hanging.add(res);
    res.on("close", () => this.hanging.delete(res));
  }

  private answerFault(fault: Fault, res: ServerResponse): void {
    switch (fault.kind) {
      case "status":
        if (fault.afterMs) {
          const answer = { ...fault, afterMs: 0 };
          setTimeout(() => this.answerFault(answer, res), fault.afterMs);
          return;
        }
        res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
        res.end(JSON.stringify(fault.body ?? { error: { message: `peer fault ${fault.status}` } }));
        return;
      case "hang":
        this.hang(res);
        return;
      case "malformed":
        res.writeHead(200, { "content-type": fault.contentType ?? "application/json" });
        res.end(fault.body ?? "{not json");
        return;
      case "close":
        res.socket?.destroy();
        return;
    }
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export function bearerOk(req: RecordedRequest, key: string | undefined): boolean {
  return !key || req.headers.authorization === `Bearer ${key}`;
}
