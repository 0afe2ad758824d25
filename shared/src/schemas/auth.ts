import { z } from "zod";
import { phoneSchema } from "./common";

export const PASSWORD_MIN = 6;

export const loginRequestSchema = z.object({
  phone: phoneSchema,
  password: z.string({ error: "password is required" }).min(1, "password is required").max(200),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** A new password: the signup rules, with the field named in the message. */
const newPasswordSchema = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(PASSWORD_MIN, `${field} must be at least ${PASSWORD_MIN} characters`)
    .max(200, `${field} must be at most 200 characters`);

/** A one-time code sent by SMS to prove a phone number (api/src/services/phone-proof.ts). */
export const phoneCodeSchema = z
  .string({ error: "code is required" })
  .trim()
  .regex(/^\d{6}$/u, "code must be the 6 digits of the SMS");

export const signupRequestSchema = z.object({
  phone: phoneSchema,
  password: newPasswordSchema("password"),
  /**
   * The code sent to `phone` (POST auth/phone/code): the account is created with its number proven,
   * and an account holding the number without proof gives it up. Without it, SPEC's signup: the
   * account works on the web and proves its number later.
   */
  code: phoneCodeSchema.optional(),
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

/** POST user/change-password.php: ends the user's other sessions; answers `{ success: true }`. */
export const changePasswordRequestSchema = z
  .object({
    currentPassword: z.string({ error: "currentPassword is required" }).min(1, "currentPassword is required").max(200),
    newPassword: newPasswordSchema("newPassword"),
  })
  .refine((input) => input.newPassword !== input.currentPassword, {
    path: ["newPassword"],
    message: "newPassword must differ from the current password",
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/**
 * proven: SMS to and from the number are the account's; unproven: the account works on the web
 * only until it proves it; released: its owner proved the number, and the account must prove another.
 */
export const PHONE_STATUSES = ["proven", "unproven", "released"] as const;
export type PhoneStatus = (typeof PHONE_STATUSES)[number];

export const sessionUserSchema = z.object({ id: z.string(), phone: z.string(), phoneStatus: z.enum(PHONE_STATUSES) });
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const authResponseSchema = z.object({
  success: z.literal(true),
  user: sessionUserSchema,
  id: z.string(),
  phone: z.string(),
});

export type AuthResponse = z.infer<typeof authResponseSchema>;

export const sessionCheckResponseSchema = z.object({
  success: z.boolean(),
  authenticated: z.boolean(),
  user: sessionUserSchema.nullable(),
});
export type SessionCheckResponse = z.infer<typeof sessionCheckResponseSchema>;

export const adminLoginRequestSchema = z.object({
  username: z.string({ error: "username is required" }).trim().min(1, "username is required").max(100),
  password: z.string({ error: "password is required" }).min(1, "password is required").max(200),
});
export type AdminLoginRequest = z.infer<typeof adminLoginRequestSchema>;

export const adminRecordSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(["super_admin", "admin", "manager", "support"]),
});
export type AdminRecord = z.infer<typeof adminRecordSchema>;

export const adminLoginResponseSchema = z.object({ success: z.literal(true), admin: adminRecordSchema, message: z.string() });
export type AdminLoginResponse = z.infer<typeof adminLoginResponseSchema>;

export const adminSessionResponseSchema = z.object({ success: z.literal(true), admin: adminRecordSchema });
export type AdminSessionResponse = z.infer<typeof adminSessionResponseSchema>;

/** POST auth/phone/code: a code by SMS to `phone` (signed in: the account's own number when omitted). */
export const phoneCodeRequestSchema = z.object({ phone: phoneSchema.optional() });
export type PhoneCodeRequest = z.infer<typeof phoneCodeRequestSchema>;

export const phoneCodeResponseSchema = z.object({
  success: z.literal(true),
  /** The number the code went to, in E.164. */
  phone: z.string(),
  /** Seconds until another code may be asked for, and until this one stops working. */
  resendIn: z.number().int(),
  expiresIn: z.number().int(),
});
export type PhoneCodeResponse = z.infer<typeof phoneCodeResponseSchema>;

/** POST auth/phone/verify: proves `phone` (the account's own number when omitted) for the signed-in account. */
export const phoneVerifyRequestSchema = z.object({ phone: phoneSchema.optional(), code: phoneCodeSchema });
export type PhoneVerifyRequest = z.infer<typeof phoneVerifyRequestSchema>;
