import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { getWallet, WALLET_UPDATED_EVENT } from "../api/wallet";

const WALLET_QUERY_KEY = ["wallet"] as const;

/** The wallet, reloaded on the walletUpdated browser event (fired by screens and by the socket push). */
export function useWallet() {
  const query = useQuery({ queryKey: WALLET_QUERY_KEY, queryFn: getWallet, retry: false });
  const { refetch } = query;
  useEffect(() => {
    const reload = () => void refetch();
    window.addEventListener(WALLET_UPDATED_EVENT, reload);
    return () => window.removeEventListener(WALLET_UPDATED_EVENT, reload);
  }, [refetch]);
  return query;
}
