/**
 * Streamed reply words, pushed at most once per `everyMs` instead of one Redis publish per word:
 * a fragment that comes after a quiet spell goes out at once (the first words are never held),
 * the ones that follow within the interval go out together at its end. `end()` sends what is
 * left, so the pushed fragments always add up to the whole reply; `cancel()` drops it.
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

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
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
      const wait = lastSent + everyMs - now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    end: flush,
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = "";
    },
  };
}
