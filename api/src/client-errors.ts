/**
 * Requests Node's HTTP parser refuses before Express sees them (a URL or headers over the 16 KB
 * limit, a malformed request line, a request that never finished arriving) are answered in the
 * API's JSON error shape instead of Node's bare status line, so every client gets
 * `{ success: false, error, code }` for bad input.
 */
import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";

const ANSWERS: Record<string, { status: number; error: string; code: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, error: "The request's URL or headers are too large", code: "headers_too_large" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, error: "The request took too long to arrive", code: "request_timeout" },
};
const MALFORMED = { status: 400, error: "Malformed HTTP request", code: "bad_request" };

export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client dropped, or one already answered, gets nothing more.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, error: message, code } = ANSWERS[error.code ?? ""] ?? MALFORMED;
    const body = JSON.stringify({ success: false, error: message, code });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
