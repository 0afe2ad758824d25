import { useSyncExternalStore } from "react";

const never = () => () => undefined;

/**
 * False while the build renders a page (entry-server.tsx) and during the browser's first render of
 * it (hydration, which must match that markup), true from the next render on; true at once on a
 * page the browser renders itself. A prerendered form stays disabled until then: a click before the
 * script has taken the form over would send it the browser's own way (a GET with the password in
 * the address), and what was typed before hydration is reset to the state's empty value.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
