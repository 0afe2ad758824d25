import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { TOAST_MS } from "@storefront/shared";
import { useToast } from "../components/Toasts";
import { useAuth } from "./useAuth";

/** SPEC §2: logout, a 3 s "logged out" toast, then a hard redirect to /login after 1 s. */
export function useSignOut(): () => Promise<void> {
  const { t } = useTranslation();
  const toast = useToast();
  const { logout } = useAuth();
  return useCallback(async () => {
    await logout();
    toast.success(t("auth.loggedOut"), TOAST_MS.loginSuccess);
    setTimeout(() => window.location.assign("/login"), TOAST_MS.logoutRedirect);
  }, [logout, toast, t]);
}
