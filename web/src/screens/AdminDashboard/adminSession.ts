/**
 * The admin session flag of SPEC §3/§4: `admin_session` in session and local storage, holding the
 * admin record returned by login. An absent flag means denied; a present one is verified by a call.
 */
import type { AdminRecord } from "@storefront/shared";

const ADMIN_SESSION_KEY = "admin_session";

export function storeAdminSession(admin: AdminRecord): void {
  const value = JSON.stringify(admin);
  try {
    sessionStorage.setItem(ADMIN_SESSION_KEY, value);
    localStorage.setItem(ADMIN_SESSION_KEY, value);
  } catch {
    // Storage disabled: the server session still works for this page.
  }
}

export function clearAdminSession(): void {
  try {
    sessionStorage.removeItem(ADMIN_SESSION_KEY);
    localStorage.removeItem(ADMIN_SESSION_KEY);
  } catch {
    // Nothing stored.
  }
}

export function hasAdminSessionFlag(): boolean {
  try {
    return Boolean(sessionStorage.getItem(ADMIN_SESSION_KEY) ?? localStorage.getItem(ADMIN_SESSION_KEY));
  } catch {
    return false;
  }
}
