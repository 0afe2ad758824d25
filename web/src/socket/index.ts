/**
 * The realtime channel (DESIGN §6): one Socket.IO connection per logged-in tab, authenticated by the
 * session cookie. Screens subscribe to typed events; every tool still works without it.
 * socket.io-client is loaded on demand so visitors never download it.
 */
import type { ServerEvents } from "@storefront/shared";
import type { Socket } from "socket.io-client";
import { announceWalletUpdate } from "../api/wallet";
import { SOCKET_OPTIONS } from "./options";

export type ServerEventName = keyof ServerEvents;
type Handler<E extends ServerEventName> = (payload: ServerEvents[E]) => void;

/** The events the subscriber app listens to. */
export const SUBSCRIBER_EVENTS = ["wallet:updated", "chat:delta", "job:completed", "job:failed", "video:status"] as const;

const handlers = new Map<ServerEventName, Set<Handler<ServerEventName>>>();
let socket: Socket | null = null;
let wanted = false;
const connectionListeners = new Set<(connected: boolean) => void>();

function emitLocal<E extends ServerEventName>(event: E, payload: ServerEvents[E]): void {
  for (const handler of handlers.get(event) ?? []) (handler as Handler<E>)(payload);
}

export async function connectSocket(events: readonly ServerEventName[] = SUBSCRIBER_EVENTS): Promise<void> {
  wanted = true;
  if (socket) return;
  const { io } = await import("socket.io-client");
  if (!wanted || socket) return;
  const s = io(SOCKET_OPTIONS);
  socket = s;
  for (const event of events) s.on(event as string, (payload: ServerEvents[typeof event]) => emitLocal(event, payload));
  // Every wallet view reloads on the one browser event, whoever caused the change.
  s.on("wallet:updated", () => announceWalletUpdate());
  s.on("connect", () => {
    // A change pushed while the socket was (re)connecting reached no one: wallet views read again.
    announceWalletUpdate();
    connectionListeners.forEach((l) => l(true));
  });
  s.on("disconnect", () => connectionListeners.forEach((l) => l(false)));
}

export function disconnectSocket(): void {
  wanted = false;
  socket?.disconnect();
  socket = null;
  connectionListeners.forEach((l) => l(false));
}

export function isSocketConnected(): boolean {
  return socket?.connected ?? false;
}

export function onConnectionChange(listener: (connected: boolean) => void): () => void {
  connectionListeners.add(listener);
  return () => connectionListeners.delete(listener);
}

export function onServerEvent<E extends ServerEventName>(event: E, handler: Handler<E>): () => void {
  let set = handlers.get(event);
  if (!set) {
    set = new Set();
    handlers.set(event, set);
  }
  set.add(handler as Handler<ServerEventName>);
  return () => set.delete(handler as Handler<ServerEventName>);
}
