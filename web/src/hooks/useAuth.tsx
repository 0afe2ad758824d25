/**
 * Auth state of SPEC §4: unknown until the session check finishes (ready), then a user or none.
 * Logout clears the user even if the call fails, and forgets the attempted URL. Plain React state
 * (not the data cache) so the public pages stay light.
 */
import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import type { SessionUser } from "@storefront/shared";
import * as authApi from "../api/auth";
import { safeReturnPath } from "../lib/returnPath";

/**
 * The realtime channel's module, asked for once someone signs in: visitors' first page does without
 * it. One promise, so a connect and a disconnect asked for in a row run in that order.
 */
let socketModule: Promise<typeof import("../socket")> | undefined;
function connectSocket(): void {
  // A chunk that failed to download is asked for again by the next sign-in.
  socketModule ??= import("../socket").catch((error: unknown) => {
    socketModule = undefined;
    throw error;
  });
  void socketModule.then((socket) => socket.connectSocket());
}
/** Only a module asked for can hold a connection (nothing else connects it). */
function disconnectSocket(): void {
  void socketModule?.then((socket) => socket.disconnectSocket()).catch(() => undefined);
}

/** Where a guard remembers the page a logged-out visitor tried to open. */
const ATTEMPTED_URL_KEY = "redirectAfterLogin";

export function rememberAttemptedUrl(url: string): void {
  sessionStorage.setItem(ATTEMPTED_URL_KEY, url);
}

/** The remembered page (once), or the fallback. */
export function takeAttemptedUrl(fallback: string): string {
  const url = sessionStorage.getItem(ATTEMPTED_URL_KEY);
  sessionStorage.removeItem(ATTEMPTED_URL_KEY);
  return safeReturnPath(url) ?? fallback;
}

interface AuthValue {
  user: SessionUser | null;
  ready: boolean;
  /** True after logout in this page: guards wait for the redirect instead of remembering the URL. */
  signedOut: boolean;
  login(phone: string, password: string): Promise<SessionUser>;
  signup(phone: string, password: string): Promise<SessionUser>;
  logout(): Promise<void>;
  /** The signed-in user as a call answered it (a proven phone number). */
  setSessionUser(user: SessionUser): void;
}

const AuthContext = createContext<AuthValue | null>(null);

async function clearServerState(): Promise<void> {
  const { queryClient } = await import("../api/queryClient");
  queryClient.clear();
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null>(null);
  const [ready, setReady] = useState(false);
  const [signedOut, setSignedOut] = useState(false);

  useEffect(() => {
    let live = true;
    void authApi.checkSession().then((found) => {
      if (!live) return;
      // A transition: on a page the build rendered, a part still waiting for its chunk (the home
      // page's prices) keeps the server's markup. An urgent change of this context would reach that
      // part before it is hydrated, and React would throw the markup away and draw it again.
      startTransition(() => {
        setUser(found);
        setReady(true);
      });
    });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (user) connectSocket();
    else disconnectSocket();
  }, [user]);

  const login = useCallback(async (phone: string, password: string) => {
    const signedIn = await authApi.login(phone, password);
    setSignedOut(false);
    setUser(signedIn);
    setReady(true);
    return signedIn;
  }, []);

  const signup = useCallback(async (phone: string, password: string) => {
    const created = await authApi.signup(phone, password);
    // Signup may or may not open a session on the server; the session check says which.
    setUser(await authApi.checkSession());
    setReady(true);
    return created;
  }, []);

  const logout = useCallback(async () => {
    try {
      await authApi.logout();
    } catch {
      // The user is logged out locally whatever the server said (SPEC §4).
    } finally {
      sessionStorage.removeItem(ATTEMPTED_URL_KEY);
      disconnectSocket();
      setSignedOut(true);
      setUser(null);
      await clearServerState();
    }
  }, []);

  const value = useMemo<AuthValue>(
    () => ({ user, ready, signedOut, login, signup, logout, setSessionUser: setUser }),
    [user, ready, signedOut, login, signup, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth outside AuthProvider");
  return value;
}

/** For screens behind the user guard, where a user is certain. */
export function useUser(): SessionUser {
  const { user } = useAuth();
  if (!user) throw new Error("useUser outside the user guard");
  return user;
}
