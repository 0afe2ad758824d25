/** Stands in for `use-sync-external-store/shim` (see vite.config.ts): React's own hook. */
export { useSyncExternalStore } from "react";
