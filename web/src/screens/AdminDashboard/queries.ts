/**
 * The back office's server state on TanStack Query: the query of every administrator read (its key
 * under "admin", so a logout drops them all), one failure rule for the sections, and writes that
 * refresh the reads they change.
 */
import { useEffect, useRef, useState } from "react";
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseQueryOptions,
} from "@tanstack/react-query";
import { ApiError } from "../../api/client";
import { useToast } from "../../components/Toasts";
import { adminApi } from "./adminApi";
import { useAdmin } from "./context";

/** The keys of the administrator reads; a write refreshes a read by its key (or a key's prefix). */
export const adminKeys = {
  all: ["admin"],
  dashboard: ["admin", "dashboard"],
  analytics: ["admin", "analytics"],
  users: ["admin", "users"],
  userPackages: ["admin", "user-packages"],
  packages: ["admin", "packages"],
  walletConfig: ["admin", "wallet-config"],
  redemption: ["admin", "redemption"],
  queues: ["admin", "queues"],
  admins: ["admin", "admins"],
  audit: ["admin", "audit"],
  smsGateways: ["admin", "sms-gateways"],
  smsIntegration: ["admin", "sms-integration"],
  smsLogs: ["admin", "sms-logs"],
} as const;

export const adminQueries = {
  dashboard: () => queryOptions({ queryKey: adminKeys.dashboard, queryFn: () => adminApi.dashboard().then((r) => r.stats) }),
  analytics: (from: string, to: string) =>
    queryOptions({ queryKey: [...adminKeys.analytics, from, to], queryFn: () => adminApi.analytics(from, to) }),
  users: (query: Parameters<typeof adminApi.users>[0]) =>
    queryOptions({ queryKey: [...adminKeys.users, query], queryFn: () => adminApi.users(query) }),
  userPackages: (userId: string) =>
    queryOptions({
      queryKey: [...adminKeys.userPackages, userId],
      queryFn: () => adminApi.userPackages(userId).then((r) => r.packages),
    }),
  packages: () => queryOptions({ queryKey: adminKeys.packages, queryFn: () => adminApi.packages().then((r) => r.packages) }),
  walletConfig: () => queryOptions({ queryKey: adminKeys.walletConfig, queryFn: () => adminApi.walletConfig() }),
  redemptionBatches: () =>
    queryOptions({ queryKey: adminKeys.redemption, queryFn: () => adminApi.redemptionBatches().then((r) => r.batches) }),
  /** Who redeemed a batch's codes; under the batches' key, so what refreshes the batches refreshes it. */
  redemptions: (batchId: string) =>
    queryOptions({
      queryKey: [...adminKeys.redemption, batchId],
      queryFn: () => adminApi.redemptionBatches(batchId).then((r) => r.redemptions ?? []),
    }),
  queues: () => queryOptions({ queryKey: adminKeys.queues, queryFn: () => adminApi.queues() }),
  admins: () => queryOptions({ queryKey: adminKeys.admins, queryFn: () => adminApi.admins().then((r) => r.admins) }),
  audit: (page: number, limit: number) =>
    queryOptions({ queryKey: [...adminKeys.audit, page, limit], queryFn: () => adminApi.audit({ page, limit }) }),
  smsGateways: () =>
    queryOptions({ queryKey: adminKeys.smsGateways, queryFn: () => adminApi.smsConfigs().then((r) => r.configs) }),
  smsIntegration: () =>
    queryOptions({ queryKey: adminKeys.smsIntegration, queryFn: () => adminApi.smsIntegration().then((r) => r.config) }),
  /** The answer's `action` says which view it is, so a placeholder from another view is not drawn as this one. */
  smsLogs: (query: Parameters<typeof adminApi.smsLogs>[0]) =>
    queryOptions({ queryKey: [...adminKeys.smsLogs, query], queryFn: () => adminApi.smsLogs(query) }),
};

/**
 * A section's read: loaded on every visit (the cached answer shows meanwhile), never retried; a
 * failure shows the section's SPEC §8 toast, and a 401 sends the administrator back to the login.
 * With `keepPrevious`, the last answer stays on screen while another page or filter loads.
 */
export function useAdminQuery<T, K extends QueryKey>(
  options: UseQueryOptions<T, Error, T, K>,
  failText: string,
  extra: { keepPrevious?: boolean; refetchInterval?: number | false } = {},
) {
  const toast = useToast();
  const { sessionExpired } = useAdmin();
  const query = useQuery({
    ...options,
    staleTime: 0,
    retry: false,
    placeholderData: extra.keepPrevious ? keepPreviousData : undefined,
    refetchInterval: extra.refetchInterval,
  });
  const failRef = useRef(failText);
  useEffect(() => {
    failRef.current = failText;
  });
  // A failure the cache kept from an earlier visit was told then; this visit tells its own.
  const [mountedAt] = useState(Date.now);
  const { error, errorUpdatedAt } = query;
  useEffect(() => {
    if (!error || errorUpdatedAt < mountedAt) return;
    if (error instanceof ApiError && error.status === 401) sessionExpired();
    else toast.error(failRef.current);
  }, [error, errorUpdatedAt, mountedAt, toast, sessionExpired]);
  return query;
}

/** A write that, done or refused, refreshes the reads it may have changed (before it resolves). */
export function useAdminMutation<V, R>(mutationFn: (variables: V) => Promise<R>, refreshes: readonly QueryKey[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    // A read already on its way may have left before the write: invalidating alone would wait for it
    // (a query with no answer yet, such as a new filter's, is not cancelled but joined) and show what
    // it read before the write. Cancelled first, every read is made again after the write.
    onSettled: () =>
      Promise.all(
        refreshes.map(async (queryKey) => {
          await queryClient.cancelQueries({ queryKey });
          await queryClient.invalidateQueries({ queryKey });
        }),
      ),
  });
}
