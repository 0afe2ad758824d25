/**
 * Route guards (SPEC §2, §6): "Verifying authentication..." until the session check is ready,
 * then the screen, or the Access Denied screen (or a redirect, for the text chat) with the
 * attempted URL remembered for after login.
 */
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router-dom";
import { rememberAttemptedUrl, useAuth } from "../hooks/useAuth";
import AccessDenied from "../screens/AccessDenied/AccessDenied";
import { PageLoading } from "./Spinner";

export interface GuardProps {
  children: ReactNode;
  /** Send logged-out visitors here instead of showing Access Denied. */
  redirectTo?: string;
}

export function RequireUser({ children, redirectTo }: GuardProps) {
  const { t } = useTranslation();
  const { user, ready, signedOut } = useAuth();
  const location = useLocation();
  const attempted = `${location.pathname}${location.search}${location.hash}`;
  const denied = ready && !user && !signedOut;

  useEffect(() => {
    if (denied) rememberAttemptedUrl(attempted);
  }, [denied, attempted]);

  if (!ready) return <PageLoading label={t("guard.verifying")} />;
  if (!user && signedOut) return <PageLoading label={t("auth.loggedOut")} />;
  if (!user) return redirectTo ? <Navigate to={redirectTo} replace /> : <AccessDenied />;
  return <>{children}</>;
}

export { AccessDenied };
