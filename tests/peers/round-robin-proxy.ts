/**
 * A small round-robin reverse proxy on 127.0.0.1 standing in for the load balancer in front of
 * several API processes: plain HTTP requests and websocket upgrades (Socket.IO's websocket
 * transport) go to the next backend in turn. A backend that refuses the connection (a killed
 * process) is skipped, as a load balancer with health checks would; a request already handed to a
 * backend that then dies gets 502, as it would in production.
 */
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Which backend (index into the list) served each request or upgrade, in order. */
  log: { kind: "http" | "upgrade"; path: string; backend: number; status?: number }[];
  close(): Promise<void>;
}

interface Backend {
  host: string;
  port: number;
}

function parse(url: string): Backend {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port) };
}

export async function startRoundRobinProxy(backendUrls: string[]): Promise<RoundRobinProxy> {
  const backends = backendUrls.map(parse);
  let next = 0;
  const log: RoundRobinProxy["log"] = [];
  const sockets = new Set<Socket>();

  const pick = (): number => {
    const index = next % backends.length;
    next += 1;
    return index;
  };

  /** Opens a TCP connection to the next backend in turn that accepts one. */
  const connectAny = (start = pick(), tried = 0): Promise<{ socket: Socket; index: number }> =>
    new Promise((resolve, reject) => {
      const index = (start + tried) % backends.length;
      const { host, port } = backends[index]!;
      const socket = connect(port, host);
      socket.once("connect", () => resolve({ socket, index }));
      socket.once("error", (error) => {
        socket.destroy();
        if (tried + 1 < backends.length) connectAny(start, tried + 1).then(resolve, reject);
        else reject(error);
      });
    });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      connectAny().then(
        ({ socket, index }) => {
          const entry: RoundRobinProxy["log"][number] = { kind: "http", path: req.url ?? "", backend: index };
          log.push(entry);
          const upstream = request(
            {
              createConnection: () => socket,
              method: req.method,
              path: req.url,
              headers: { ...req.headers, connection: "close", "x-forwarded-for": req.socket.remoteAddress ?? "" },
            },
            (answer: IncomingMessage) => {
              entry.status = answer.statusCode;
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              // A backend killed mid-answer: cut the client's connection too, never leave it waiting.
              answer.on("aborted", () => res.destroy());
              answer.on("error", () => res.destroy());
              answer.pipe(res);
            },
          );
          upstream.on("error", () => {
            entry.status = 502;
            if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
            res.end(JSON.stringify({ success: false, error: "bad gateway" }));
          });
          upstream.end(body);
        },
        () => {
          res.writeHead(502, { "content-type": "application/json" });
          res.end(JSON.stringify({ success: false, error: "no backend" }));
        },
      );
    });
  });

  server.on("upgrade", (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    connectAny().then(
      ({ socket, index }) => {
        sockets.add(socket);
        socket.on("close", () => {
          sockets.delete(socket);
          client.destroy();
        });
        socket.on("error", () => socket.destroy());
        client.on("close", () => socket.destroy());
        log.push({ kind: "upgrade", path: req.url ?? "", backend: index });
        // Replay the upgrade request as received, then splice the two sockets together.
        const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        socket.write(`${lines.join("\r\n")}\r\n\r\n`);
        if (head.length) socket.write(head);
        socket.pipe(client);
        client.pipe(socket);
      },
      () => client.destroy(),
    );
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
