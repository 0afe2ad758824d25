/** The live "queues:stats" push to the admins room, in the shape of the HTTP answer. */
import { useEffect, useState } from "react";
import type { QueueStat, ServerEvents } from "@storefront/shared";
import { SOCKET_OPTIONS } from "../../../../socket/options";

/** The numbers of a "queues:stats" push in the shape of the HTTP answer. */
function fromPush(payload: ServerEvents["queues:stats"]): QueueStat[] {
  return Object.entries(payload.queues).map(([name, row]) => ({
    name,
    counts: {
      waiting: row.waiting ?? 0,
      active: row.active ?? 0,
      completed: row.completed ?? 0,
      failed: row.failed ?? 0,
      delayed: row.delayed ?? 0,
    },
    jobs_per_minute: row.jobs_per_minute ?? 0,
    duration_p50_ms: row.duration_p50_ms ?? null,
    duration_p95_ms: row.duration_p95_ms ?? null,
    paused: row.paused === 1,
  }));
}

/** A socket of its own, so the admins-room push arrives whatever the subscriber app's socket listens to. */
export function useQueuePush(onStats: (stats: QueueStat[]) => void): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    let closed = false;
    let close = () => {};
    void import("socket.io-client").then(({ io }) => {
      if (closed) return;
      const socket = io(SOCKET_OPTIONS);
      socket.on("connect", () => setLive(true));
      socket.on("disconnect", () => setLive(false));
      socket.on("queues:stats", (payload: ServerEvents["queues:stats"]) => onStats(fromPush(payload)));
      close = () => socket.disconnect();
    });
    return () => {
      closed = true;
      close();
    };
  }, [onStats]);
  return live;
}
