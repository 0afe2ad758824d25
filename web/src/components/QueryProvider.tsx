/**
 * Server-state cache for the signed-in screens. Loaded lazily by the route table so the public
 * pages (and their bundle budget) do not carry the data library.
 */
import type { ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { queryClient } from "../api/queryClient";

export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
