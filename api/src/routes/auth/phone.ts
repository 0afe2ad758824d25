import {
  authResponseSchema,
  phoneCodeRequestSchema,
  phoneCodeResponseSchema,
  phoneVerifyRequestSchema,
} from "@storefront/shared";
import { requestLanguage } from "../../language";
import { sessionUserBody } from "../../services/auth";
import { codeRequester, provePhone, sendPhoneCode } from "../../services/phone-proof";
import { defineRoute, TAGS } from "../define";

/** Proving a phone number by a code sent to it (services/phone-proof.ts). */
export const phoneProofRoutes = [
  defineRoute({
    method: "post",
    paths: ["/auth/phone/code"],
    tag: TAGS.account,
    summary:
      "Send a one-time code by SMS to a number (signed in: the account's own when omitted; signed out: for a signup that proves it), " +
      "bound to the caller (the account, or the visitor's session): only they can type it. The same answer whether or not another account proved the number. " +
      "400 naming phone (impossible, or of a country PHONE_CODE_COUNTRIES does not list: phone_country); 429 too_many_codes with Retry-After before the caller's resend delay " +
      "and past the per-address (not for an account's own number), per-number-and-caller, per-number by everyone and overall hourly budgets, or the destination country's daily one",
    auth: "none",
    body: phoneCodeRequestSchema,
    response: phoneCodeResponseSchema,
    errors: [400, 429],
    handler: ({ body, req, ctx }) =>
      sendPhoneCode(ctx, { phone: body.phone, requester: codeRequester(req), language: requestLanguage(req) }),
  }),

  defineRoute({
    method: "post",
    paths: ["/auth/phone/verify"],
    tag: TAGS.account,
    summary:
      "Prove a number with the code sent to it: SMS to and from it are the account's from now on, and an account holding it unproven gives it up. " +
      "Only the code sent to this account's (or this session's) request counts. 429 too_many_code_tries with Retry-After past the per-account and per-address hourly tries, " +
      "too_many_number_tries past the number's wrong tries by everyone (per hour and per day; the number's own account may still type the code it was sent before); " +
      "400 naming code (phone_code_invalid, phone_code_expired, phone_code_attempts, phone_code_missing), 409 when another account proved it",
    auth: "user",
    body: phoneVerifyRequestSchema,
    response: authResponseSchema,
    errors: [400, 401, 409, 429],
    handler: async ({ body, req, ctx }) => {
      const requester = codeRequester(req);
      const user = await provePhone(ctx, { userId: req.user!.id, phone: body.phone, code: body.code, requester });
      req.session.phone = user.phone;
      return sessionUserBody(user);
    },
  }),
];
