import { createContext, useContext } from "react";
import type { AdminRecord } from "@storefront/shared";

export interface AdminContextValue {
  admin: AdminRecord;
  /** A call answered 401: clear the flag and go back to /admin-login. */
  sessionExpired(): void;
}

export const AdminContext = createContext<AdminContextValue | null>(null);

export function useAdmin(): AdminContextValue {
  const value = useContext(AdminContext);
  if (!value) throw new Error("useAdmin outside the admin dashboard");
  return value;
}
