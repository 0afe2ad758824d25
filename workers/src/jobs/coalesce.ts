/**
 * Streamed reply words, pushed at most once per `everyMs` instead of one Redis publish per word.
 * A fragment that comes after a quiet spell goes out at the end of the current turn of the event
 * loop (the first words are never held for the interval, and a reply that arrives whole, as the
 * offline provider's does, goes out as one push); the ones that follow within the interval go out
 * together at its end. `end()` sends what is left, so the pushed fragments always add up to the
 * whole reply; `cancel()` drops it.
 */
export interface Coalescer {
  push(fragment: string): void;
  end(): void;
  cancel(): void;
}

export function coalesce(send: (text: string) => void, everyMs = 40, now: () => number = Date.now): Coalescer {
  let pending = "";
  let lastSent = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let soon: NodeJS.Immediate | null = null;

  const stop = () => {
    if (timer) clearTimeout(timer);
    if (soon) clearImmediate(soon);
    timer = null;
    soon = null;
  };

  const flush = () => {
    stop();
    if (!pending) return;
    const text = pending;
    pending = "";
    lastSent = now();
    send(text);
  };

  return {
    push(fragment) {
      if (!fragment) return;
      pending += fragment;
      if (timer || soon) return;
      const wait = lastSent + everyMs - now();
      if (wait <= 0) soon = setImmediate(flush);
      else timer = setTimeout(flush, wait);
    },
    end: flush,
    cancel() {
      stop();
      pending = "";
    },
  };
}
