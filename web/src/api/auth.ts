// Types only: this module is in the first chunk, where zod would break the bundle budget.
import type { z } from "zod";
import type {
  AuthResponse,
  loginRequestSchema,
  SessionCheckResponse,
  SessionUser,
  signupRequestSchema,
  successSchema,
} from "@storefront/shared";
import { get, post } from "./client";

/** The session user of a login/signup/session answer; without id and phone it is unusable. */
export function sessionUserFrom(body: Pick<AuthResponse, "user"> | SessionCheckResponse | null): SessionUser {
  const user = body?.user;
  if (!user || typeof user.id !== "string" || typeof user.phone !== "string" || !user.id || !user.phone) {
    throw new Error("Invalid response from server");
  }
  return { id: user.id, phone: user.phone, phoneStatus: user.phoneStatus ?? "unproven" };
}

export async function login(phone: string, password: string): Promise<SessionUser> {
  return sessionUserFrom(
    await post<AuthResponse>("login-session-fix.php", {
      phone: phone.trim(),
      password,
    } satisfies z.input<typeof loginRequestSchema>),
  );
}

export async function signup(phone: string, password: string): Promise<SessionUser> {
  return sessionUserFrom(
    await post<AuthResponse>("signup.php", { phone: phone.trim(), password } satisfies z.input<typeof signupRequestSchema>),
  );
}

/** A failed check counts as logged out, silently (SPEC §4). */
export async function checkSession(): Promise<SessionUser | null> {
  try {
    const body = await get<SessionCheckResponse>("session-check-simple.php");
    return body.authenticated === true ? sessionUserFrom(body) : null;
  } catch {
    return null;
  }
}

export async function logout(): Promise<void> {
  await post<z.output<typeof successSchema>>("logout.php");
}
