import { useCallback, useState } from "react";

/** State mirrored into localStorage under a key (JSON); storage failures keep it in memory only. */
export function useStoredState<T>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => readStored(key, initial));
  const update = useCallback(
    (next: T) => {
      setValue(next);
      writeStored(key, next);
    },
    [key],
  );
  return [value, update];
}

export function readStored<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the value lives in memory only.
  }
}

/**
 * A plain string in localStorage (no JSON quoting), for keys other tools read as text; a null key
 * keeps it in memory only.
 */
export function useStoredString(key: string | null, initial: string | null): [string | null, (value: string | null) => void] {
  const [value, setValue] = useState<string | null>(() => {
    if (key === null) return initial;
    try {
      return localStorage.getItem(key) ?? initial;
    } catch {
      return initial;
    }
  });
  const update = useCallback(
    (next: string | null) => {
      setValue(next);
      if (key === null) return;
      try {
        if (next === null) localStorage.removeItem(key);
        else localStorage.setItem(key, next);
      } catch {
        // Storage disabled: memory only.
      }
    },
    [key],
  );
  return [value, update];
}
