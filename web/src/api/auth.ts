import type { SessionUser } from "@storefront/shared";
import { get, post } from "./client";

/** SPEC §3: the session user may come wrapped in `user` or flat; without id and phone it is unusable. */
export function sessionUserFrom(body: unknown): SessionUser {
  const record = (body ?? {}) as { user?: { id?: unknown; phone?: unknown } | null; id?: unknown; phone?: unknown };
  const source = record.user ?? record;
  if (source.id === undefined || source.id === null || !source.phone) throw new Error("Invalid response from server");
  return { id: String(source.id), phone: String(source.phone) };
}

export async function login(phone: string, password: string): Promise<SessionUser> {
  return sessionUserFrom(await post("login-session-fix.php", { phone: phone.trim(), password }));
}

export async function signup(phone: string, password: string): Promise<SessionUser> {
  return sessionUserFrom(await post("signup.php", { phone: phone.trim(), password }));
}

/** A failed check counts as logged out, silently (SPEC §4). */
export async function checkSession(): Promise<SessionUser | null> {
  try {
    const body = await get<{ authenticated?: boolean; user?: unknown }>("session-check-simple.php");
    return body.authenticated ? sessionUserFrom(body) : null;
  } catch {
    return null;
  }
}

export async function logout(): Promise<void> {
  await post("logout.php");
}
