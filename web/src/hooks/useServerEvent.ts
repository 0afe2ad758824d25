import { useEffect, useRef, useState } from "react";
import type { ServerEvents } from "@storefront/shared";
import { isSocketConnected, onConnectionChange, onServerEvent, type ServerEventName } from "../socket";

/** Subscribes a component to one push event for its lifetime; the latest handler is always used. */
export function useServerEvent<E extends ServerEventName>(event: E, handler: (payload: ServerEvents[E]) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onServerEvent(event, (payload) => latest.current(payload)), [event]);
}

/** Whether the live connection is up; read again when subscribing, since it may have connected after the first render. */
export function useSocketConnected(): boolean {
  const [connected, setConnected] = useState(isSocketConnected);
  useEffect(() => {
    const unsubscribe = onConnectionChange(setConnected);
    setConnected(isSocketConnected());
    return unsubscribe;
  }, []);
  return connected;
}
