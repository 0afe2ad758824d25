import type { ManagerOptions, SocketOptions } from "socket.io-client";

/**
 * How every socket of the web app connects: a WebSocket first, long-polling only where a WebSocket
 * cannot open (a proxy that refuses the upgrade). No handshake and upgrade over polling for each
 * connection, and no long-poll still in flight when a screen closes its socket (the server answers
 * such a late poll 400, "Session ID unknown", which the browser logs as an error).
 */
export const SOCKET_OPTIONS: Partial<ManagerOptions & SocketOptions> = {
  path: "/socket.io",
  withCredentials: true,
  reconnectionDelayMax: 10_000,
  transports: ["websocket", "polling"],
  tryAllTransports: true,
};
