/** Proving the phone number by a code sent to it (POST auth/phone/code, auth/phone/verify; signup.php with a code). */
import type { z } from "zod";
import type {
  AuthResponse,
  phoneCodeRequestSchema,
  PhoneCodeResponse,
  phoneVerifyRequestSchema,
  SessionUser,
  signupRequestSchema,
} from "@storefront/shared";
import { sessionUserFrom } from "./auth";
import { post } from "./client";

/** Where the web remembers when the last code to a number went out, for the resend countdown across screens. */
const SENT_KEY = "phoneCodeSent";

interface SentRecord {
  phone: string;
  /** Epoch ms after which another code may be asked for. */
  resendAt: number;
}

/** Seconds before another code may be sent to `phone` from this tab (0: now). */
export function resendWait(phone: string): number {
  try {
    const sent = JSON.parse(sessionStorage.getItem(SENT_KEY) ?? "null") as SentRecord | null;
    if (!sent || (phone && sent.phone !== phone)) return 0;
    return Math.max(0, Math.ceil((sent.resendAt - Date.now()) / 1000));
  } catch {
    return 0;
  }
}

/** Sends a code to `phone` (signed in: the account's own number when omitted). */
export async function sendPhoneCode(phone?: string): Promise<PhoneCodeResponse> {
  const sent = await post<PhoneCodeResponse>(
    "auth/phone/code",
    (phone ? { phone: phone.trim() } : {}) satisfies z.input<typeof phoneCodeRequestSchema>,
  );
  sessionStorage.setItem(SENT_KEY, JSON.stringify({ phone: sent.phone, resendAt: Date.now() + sent.resendIn * 1000 }));
  return sent;
}

/** Proves the number (the account's own, or `phone`) for the signed-in account. */
export async function verifyPhoneCode(code: string, phone?: string): Promise<SessionUser> {
  return sessionUserFrom(
    await post<AuthResponse>("auth/phone/verify", {
      code: code.trim(),
      ...(phone ? { phone: phone.trim() } : {}),
    } satisfies z.input<typeof phoneVerifyRequestSchema>),
  );
}

/** Signs up with the number proven by its code (taking it back from an account that never proved it). */
export async function signupWithCode(phone: string, password: string, code: string): Promise<SessionUser> {
  return sessionUserFrom(
    await post<AuthResponse>("signup.php", {
      phone: phone.trim(),
      password,
      code: code.trim(),
    } satisfies z.input<typeof signupRequestSchema>),
  );
}
