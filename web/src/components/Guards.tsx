/**
 * Route guards (SPEC §2, §6): "Verifying authentication..." until the session check is ready,
 * then the screen, or the Access Denied screen (or a redirect, for the text chat) with the
 * attempted URL remembered for after login.
 */
import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router-dom";
import { rememberAttemptedUrl, useAuth } from "../hooks/useAuth";
import { loginLinkFor } from "../lib/returnPath";
import AccessDenied from "../screens/AccessDenied/AccessDenied";
import { PageLoading } from "./Spinner";
import { useToast } from "./Toasts";

export interface GuardProps {
  children: ReactNode;
  /** Send logged-out visitors here instead of showing Access Denied. */
  redirectTo?: string;
  /** Catalog key of the notice shown with that redirect. */
  redirectNotice?: string;
}

export function RequireUser({ children, redirectTo, redirectNotice }: GuardProps) {
  const { t } = useTranslation();
  const { user, ready, signedOut } = useAuth();
  const toast = useToast();
  const notified = useRef(false);
  const location = useLocation();
  const attempted = `${location.pathname}${location.search}${location.hash}`;
  const denied = ready && !user && !signedOut;

  useEffect(() => {
    if (!denied) return;
    rememberAttemptedUrl(attempted);
    // Once per visit: the effect re-runs when the catalog finishes loading.
    if (redirectTo && redirectNotice && !notified.current) {
      notified.current = true;
      toast.info(t(redirectNotice));
    }
  }, [denied, attempted, redirectTo, redirectNotice, toast, t]);

  if (!ready) return <PageLoading label={t("guard.verifying")} />;
  if (!user && signedOut) return <PageLoading label={t("auth.loggedOut")} />;
  if (!user) return redirectTo ? <Navigate to={redirectTo} replace /> : <AccessDenied loginTo={loginLinkFor(attempted)} />;
  return <>{children}</>;
}

export { AccessDenied };
