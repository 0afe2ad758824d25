import {
  authResponseSchema,
  phoneCodeRequestSchema,
  phoneCodeResponseSchema,
  phoneVerifyRequestSchema,
} from "@storefront/shared";
import { requestLanguage } from "../../language";
import { sessionUserBody } from "../../services/auth";
import { provePhone, sendPhoneCode } from "../../services/phone-proof";
import { defineRoute, TAGS } from "../define";

/** Proving a phone number by a code sent to it (services/phone-proof.ts). */
export const phoneProofRoutes = [
  defineRoute({
    method: "post",
    paths: ["/auth/phone/code"],
    tag: TAGS.account,
    summary:
      "Send a one-time code by SMS to a number (signed in: the account's own when omitted; signed out: for a signup that proves it). " +
      "409 when another account proved the number; 429 with Retry-After before the resend delay and past the per-number, per-address and overall hourly budgets",
    auth: "none",
    body: phoneCodeRequestSchema,
    response: phoneCodeResponseSchema,
    errors: [400, 409, 429],
    handler: ({ body, req, ctx }) =>
      sendPhoneCode(ctx, {
        phone: body.phone,
        userId: req.session?.userId,
        ip: req.ip ?? "unknown",
        language: requestLanguage(req),
      }),
  }),

  defineRoute({
    method: "post",
    paths: ["/auth/phone/verify"],
    tag: TAGS.account,
    summary:
      "Prove a number with the code sent to it: SMS to and from it are the account's from now on, and an account holding it unproven gives it up. " +
      "400 naming code (phone_code_invalid, phone_code_expired, phone_code_attempts, phone_code_missing), 409 when another account proved it",
    auth: "user",
    body: phoneVerifyRequestSchema,
    response: authResponseSchema,
    errors: [400, 401, 409],
    handler: async ({ body, req, ctx }) => {
      const user = await provePhone(ctx, { userId: req.user!.id, phone: body.phone, code: body.code, ip: req.ip ?? "unknown" });
      req.session.phone = user.phone;
      return sessionUserBody(user);
    },
  }),
];
