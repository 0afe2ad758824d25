import { QueryClient } from "@tanstack/react-query";

/** The one cache of server state for every signed-in screen. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: 1 } },
});
